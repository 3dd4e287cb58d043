/// One LuaCATS annotation (`---@param name type description`), as read from a comment line.
public struct Annotation: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `---@class Name: Parent1, Parent2`.
        case `class`(name: String, parents: [LuaType], isExact: Bool)
        /// `---@field name? type description`, or an index field `---@field [K] V`.
        case field(name: String?, type: LuaType, isOptional: Bool, doc: String)
        /// `---@param name? type description`.
        case param(FunctionType.Parameter)
        /// `---@return type [name] [description]` (several, comma separated).
        case returns([FunctionType.Return], variadic: Bool)
        case type(LuaType)
        /// `---@alias Name type`, continued by `---| value` lines.
        case alias(name: String, type: LuaType)
        case `enum`(name: String)
        case generic([String])
        case overload(FunctionType)
        case cast(name: String, type: LuaType)
        case meta
        /// `---@diagnostic disable-next-line: name1, name2` (no names: every one).
        case diagnostic(action: String, names: [String])
        case deprecated(String)
        /// A tag these checks do not use (`@async`, `@nodiscard`, `@see`, …).
        case other(String)
    }

    public var kind: Kind
    /// 1-based line and byte column of the `@`.
    public var line: Int
    public var column: Int
}

/// The annotations and plain `---` lines of one run of comment lines, which describes the
/// statement right below it.
public struct AnnotationBlock: Sendable, Hashable {
    public var annotations: [Annotation] = []
    /// The `---` lines that are no annotation: the documentation.
    public var doc: [String] = []
    /// The first and last comment line of the run.
    public var firstLine = 0
    public var lastLine = 0

    public var documentation: String { doc.joined(separator: "\n") }

    /// The signature the `---@param`/`---@return` annotations give, or nil when there are none.
    public func signature(parameterNames: [String], isVariadic: Bool, isMethod: Bool) -> FunctionType? {
        var parameters: [String: FunctionType.Parameter] = [:]
        var returns: [FunctionType.Return] = []
        var returnsVariadic = false
        var annotated = false
        var overloads: [FunctionType] = []
        for annotation in annotations {
            switch annotation.kind {
            case .overload(var overload):
                overload.isMethod = isMethod
                overloads.append(overload)
            case .param(let parameter):
                parameters[parameter.name] = parameter
                annotated = true
            case .returns(let values, let variadic):
                returns += values
                returnsVariadic = returnsVariadic || variadic
                annotated = true
            default:
                break
            }
        }
        guard annotated else { return nil }
        var signature = FunctionType(
            parameters: parameterNames.map { parameters[$0] ?? FunctionType.Parameter(name: $0, type: .unknown) },
            returns: returns, isVariadic: isVariadic, returnsVariadic: returnsVariadic, isMethod: isMethod)
        signature.overloads = overloads
        return isGeneric ? signature.erasing(genericNames) : signature
    }

    /// The names `---@generic` declares.
    public var genericNames: Set<String> {
        var names: Set<String> = []
        for annotation in annotations { if case .generic(let declared) = annotation.kind { names.formUnion(declared) } }
        return names
    }

    /// Whether a `---@return` annotation is in the block (a function then states its results).
    public var declaresReturns: Bool {
        annotations.contains { if case .returns = $0.kind { return true } else { return false } }
    }

    public var deprecation: String? {
        for annotation in annotations { if case .deprecated(let message) = annotation.kind { return message } }
        return nil
    }

    public var declaredType: LuaType? {
        for annotation in annotations { if case .type(let type) = annotation.kind { return type } }
        return nil
    }

    public var className: String? {
        for annotation in annotations { if case .class(let name, _, _) = annotation.kind { return name } }
        return nil
    }

    public var isGeneric: Bool {
        annotations.contains { if case .generic = $0.kind { return true } else { return false } }
    }
}
