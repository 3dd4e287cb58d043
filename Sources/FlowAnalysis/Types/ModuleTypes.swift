import LuaSyntax

/// A field, method or global as annotations and code declare it: its type, doc comment, place
/// and deprecation.
public struct TypeMember: Sendable, Hashable {
    public var name: String
    public var type: LuaType
    public var doc: String
    public var line: Int
    public var column: Int
    /// `---@deprecated`'s message (empty when it has none); nil when not deprecated.
    public var deprecation: String?
    /// The file that declares it, once in a `TypeCatalog` (nil for a definition compiled in).
    public var file: String?

    public init(
        name: String, type: LuaType, doc: String = "", line: Int = 0, column: Int = 0, deprecation: String? = nil
    ) {
        self.name = name
        self.type = type
        self.doc = doc
        self.line = line
        self.column = column
        self.deprecation = deprecation
    }

    /// The function's signature, when the member is a function whose signature is known.
    public var signature: FunctionType? {
        if case .function(let signature) = type { return signature }
        return nil
    }
}

/// A `---@class`: its parents and the fields its annotations and its code give it.
public struct ClassDefinition: Sendable, Hashable {
    public var name: String
    public var parents: [LuaType]
    public var fields: [String: TypeMember] = [:]
    /// `---@field [K] V`, a generic class, or a parent that is no class: any field may exist.
    public var isOpen = false
    /// The `---@field`s whose type does not take nil: a constructor given as the class must set them.
    public var requiredFields: Set<String> = []
    public var line: Int
    public var doc: String = ""
}

/// What a checked module's types say about one call: the callee, and the arguments whose type is certain.
public struct CallSite: Sendable, Hashable {
    public enum Callee: Sendable, Hashable {
        /// Already resolved in the module: a local function or a field of a local table.
        case signature(FunctionType, name: String, deprecation: String?)
        case moduleField(module: String, name: String)
        case classField(className: String, name: String)
        case global(String)
        case globalField(table: String, name: String)
    }

    public var callee: Callee
    /// `o:m()`: the object is passed as `self`.
    public var isMethodCall: Bool
    /// Each argument's type when it is a literal (nil when not known), and its place.
    public var arguments: [(type: LuaType?, line: Int, column: Int)]
    /// For each argument that is a table constructor of named keys only, those keys.
    public var constructorKeys: [Int: Set<String>] = [:]
    public var line: Int
    public var column: Int

    public static func == (lhs: CallSite, rhs: CallSite) -> Bool {
        lhs.callee == rhs.callee && lhs.line == rhs.line && lhs.column == rhs.column
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(callee)
        hasher.combine(line)
        hasher.combine(column)
    }
}

/// A finding of the types' checks, before it becomes a `Diagnostic`.
public struct TypeFinding: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case malformedAnnotation, argumentType, tooManyReturns, tooFewReturns, unknownField, notCallable
        case assignmentType, missingField, deprecated
    }

    public var kind: Kind
    public var line: Int
    public var column: Int
    public var message: String
    public var hint: String?
}

/// What one module's annotations and code say about types: the classes, aliases, fields and
/// globals it declares, the calls and field reads the project's types check, and what it
/// already found wrong on its own.
public struct ModuleTypes: Sendable, Equatable {
    public var classes: [String: ClassDefinition] = [:]
    public var aliases: [String: LuaType] = [:]
    /// The fields of the table the module returns.
    public var exports: [String: TypeMember] = [:]
    /// The class of the table the module returns, when it is bound to one.
    public var exportClass: String?
    /// Whether the module returns a table whose fields are known.
    public var returnsTable = false
    /// Global names the module defines (functions, tables, values), and fields of global tables (`string.format`).
    public var globals: [String: TypeMember] = [:]
    public var globalFields: [String: [String: TypeMember]] = [:]
    /// Fields the code sets on objects of classes declared in other modules (`self.x = v`).
    public var assignedFields: [String: [String: TypeMember]] = [:]
    /// Classes declared elsewhere whose table here has an `__index` function.
    public var openedClasses: Set<String> = []
    public var calls: [CallSite] = []
    /// `x.name` reads where x is of a class: (class, name, line, column).
    public var fieldReads: [FieldRead] = []
    /// A literal assigned to a variable annotated with `---@type`.
    public var typedAssignments: [TypedAssignment] = []
    public var findings: [TypeFinding] = []
    /// `---@diagnostic` comments.
    public var silenced: [Int: Set<String>] = [:]
    public var disabledFrom: [DiagnosticRange] = []
    public var isMeta = false
    /// For an editor: the fields of each local table, and the class of each local declared
    /// with one, by the local's name (the last declaration of a name wins).
    public var localTables: [String: [String: TypeMember]] = [:]
    public var localClasses: [String: String] = [:]
    /// The module each local holds (`local Util = require "Util"`).
    public var requiredModules: [String: String] = [:]
    /// The local functions, by name (the last of a name wins).
    public var localFunctions: [String: TypeMember] = [:]
    /// For an editor: the local read at the place `of(source:probe:)` was given, with its type
    /// there (as the conditions around narrow it).
    public var probed: ProbedLocal?

    public init() {}

    public struct FieldRead: Sendable, Hashable {
        public var className: String
        public var name: String
        public var line: Int
        public var column: Int
        /// Read as a callee (`o.name()`, `o:name()`).
        public var isCalled: Bool
    }

    public struct TypedAssignment: Sendable, Hashable {
        public var declared: LuaType
        public var value: LuaType
        public var name: String
        public var line: Int
        public var column: Int
    }

    /// A local as it is at one place: its name, its type there and the line declaring it.
    public struct ProbedLocal: Sendable, Hashable {
        public var name: String
        public var type: LuaType
        public var line: Int
    }

    public struct DiagnosticRange: Sendable, Hashable {
        public var line: Int
        public var names: Set<String>
        public var enabled: Bool
    }

    /// Whether a `---@diagnostic` comment silences the finding LuaLS names `name` on `line`.
    public func silences(_ name: String, line: Int) -> Bool {
        if let names = silenced[line], names.isEmpty || names.contains(name) { return true }
        var disabled = false
        for entry in disabledFrom where entry.line <= line && (entry.names.isEmpty || entry.names.contains(name)) {
            disabled = !entry.enabled
        }
        return disabled
    }
}

extension ModuleTypes {
    /// The types of a parsed chunk.
    package static func of(_ tree: SyntaxTree, source: UnsafeRawBufferPointer) -> ModuleTypes {
        ModuleTypeCollector.collect(tree: tree, annotations: AnnotationReader(source: source))
    }

    /// The types of a chunk read in place from its parser's buffers (validation's analyzer: no
    /// `SyntaxTree` is copied from them).
    package static func of(
        nodes: UnsafeBufferPointer<SyntaxNode>, lists: UnsafeBufferPointer<Int32>, symbols: SymbolTable,
        source: UnsafeRawBufferPointer, root: Int32
    ) -> ModuleTypes {
        ModuleTypeCollector.collect(
            tree: SyntaxBuffers(nodes: nodes, lists: lists, symbols: symbols, root: root), source: source,
            annotations: AnnotationReader(source: source))
    }

    /// The types of a chunk's text, annotated or not (an editor's buffer, a definition file);
    /// nil when it does not parse.
    /// With `probe` (a 1-based line and byte column), `probed` is the local read there.
    /// Parsed in place, as validation's analyzer does: no `SyntaxTree` is copied from the
    /// parser (completion parses the buffer being typed at each request).
    public static func of(source: [UInt8], probe: (line: Int, column: Int)? = nil) -> ModuleTypes? {
        var bytes = source
        bytes.append(contentsOf: [0, 0, 0, 0])  // end-of-input sentinels the lexer relies on
        return bytes.withUnsafeBufferPointer { buffer -> ModuleTypes? in
            var parser = LuaParser(lexer: LuaLexer(base: buffer.baseAddress!, count: source.count))
            guard let root = try? parser.parseChunk() else { return nil }
            let chunk = UnsafeRawBufferPointer(start: buffer.baseAddress!, count: source.count)
            return ModuleTypeCollector.collect(
                tree: SyntaxBuffers(
                    nodes: parser.nodes.elements, lists: parser.lists.elements, symbols: parser.lexer.symbols,
                    root: root),
                source: chunk, annotations: AnnotationReader(source: chunk), probe: probe)
        }
    }
}
