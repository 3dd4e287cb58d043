/// A type as LuaCATS writes it (`string|nil`, `fun(a: T): R`, `table<K, V>`, `T[]`, `"literal"`),
/// or as inference finds it. `unknown` is what nothing is known of: no check ever warns about it.
public indirect enum LuaType: Sendable, Hashable, CustomStringConvertible {
    case unknown
    case any
    case `nil`
    case boolean
    case number
    case integer
    case string
    case table
    case userdata
    case thread
    /// A function of unknown signature (`function`), or one whose signature is written out.
    case function(FunctionType?)
    /// A literal value as a type: `"left"`, `1`, `true`.
    case literal(String)
    /// A class, alias, enum or generic name, resolved against a `TypeCatalog`.
    case named(String)
    case union([LuaType])
    case array(LuaType)
    case dictionary(LuaType, LuaType)
    /// `{ name: T, ... }`: a table of known fields.
    case shape([String: LuaType])
    /// A generic type applied to arguments, `Class<T>`: checked as `named`.
    case applied(String, [LuaType])

    /// `T?`: `T` or nil.
    public var optional: LuaType {
        if case .union(let members) = self { return members.contains(.nil) ? self : .union(members + [.nil]) }
        return self == .nil ? self : .union([self, .nil])
    }

    /// Whether nil is one of its values (an optional parameter, a `T|nil` return).
    public var acceptsNil: Bool {
        switch self {
        case .nil, .any, .unknown: return true
        case .union(let members): return members.contains { $0.acceptsNil }
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .any: return "any"
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .number: return "number"
        case .integer: return "integer"
        case .string: return "string"
        case .table: return "table"
        case .userdata: return "userdata"
        case .thread: return "thread"
        case .function(let signature): return signature.map { $0.description } ?? "function"
        case .literal(let text): return text
        case .named(let name): return name
        case .union(let members):
            if members.count == 2, members.contains(.nil), let other = members.first(where: { $0 != .nil }) {
                return other.isComposite ? "(\(other))?" : "\(other)?"
            }
            return members.map { $0.isFunction ? "(\($0))" : "\($0)" }.joined(separator: "|")
        case .array(let element): return element.isComposite ? "(\(element))[]" : "\(element)[]"
        case .dictionary(let key, let value): return "table<\(key), \(value)>"
        case .shape(let fields):
            return "{ " + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
                + " }"
        case .applied(let name, let arguments):
            return "\(name)<" + arguments.map(\.description).joined(separator: ", ") + ">"
        }
    }

    private var isComposite: Bool {
        switch self {
        case .union, .function(.some): return true
        default: return false
        }
    }

    private var isFunction: Bool {
        if case .function(.some) = self { return true }
        return false
    }
}

/// A function's parameters and returns, as `---@param`/`---@return` or `fun(...)` give them.
public struct FunctionType: Sendable, Hashable, CustomStringConvertible {
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var type: LuaType
        /// `name?`, or a type that accepts nil: the argument may be left out.
        public var isOptional: Bool
        public var doc: String

        public init(name: String, type: LuaType, isOptional: Bool = false, doc: String = "") {
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.doc = doc
        }
    }

    public struct Return: Sendable, Hashable {
        public var type: LuaType
        public var name: String
        public var doc: String

        public init(type: LuaType, name: String = "", doc: String = "") {
            self.type = type
            self.name = name
            self.doc = doc
        }
    }

    public var parameters: [Parameter]
    public var returns: [Return]
    /// Takes `...` (after `parameters`).
    public var isVariadic: Bool
    /// The last return is `...`: any number of values follow the ones listed.
    public var returnsVariadic: Bool
    /// Written `function T:name()`: takes `self` unseen.
    public var isMethod: Bool
    /// The `---@overload fun(...)` signatures it may also be called with.
    public var overloads: [FunctionType] = []

    public init(
        parameters: [Parameter] = [], returns: [Return] = [], isVariadic: Bool = false, returnsVariadic: Bool = false,
        isMethod: Bool = false
    ) {
        self.parameters = parameters
        self.returns = returns
        self.isVariadic = isVariadic
        self.returnsVariadic = returnsVariadic
        self.isMethod = isMethod
    }

    /// `fun(a: string, b?: integer): boolean`.
    public var description: String {
        "fun" + parameterList + (returns.isEmpty ? "" : ": " + returnList)
    }

    /// `(a: string, b?: integer, ...)`.
    public var parameterList: String {
        var parts = parameters.map { "\($0.name)\($0.isOptional ? "?" : ""): \($0.type)" }
        if isVariadic { parts.append("...") }
        return "(" + parts.joined(separator: ", ") + ")"
    }

    /// `boolean, string?`.
    public var returnList: String {
        var parts = returns.map { $0.type.description }
        if returnsVariadic { parts.append("...") }
        return parts.joined(separator: ", ")
    }
}
