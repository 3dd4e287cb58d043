import LuaSyntax

/// A luacheck warning class flowpkg reports: its luacheck number (`211`) names it, and each
/// has a code of its own in flowpkg's catalogue (see `LintRules.code(for:)`).
public struct LuacheckWarning: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ number: Int) { rawValue = number }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One finding of a per-module lint rule: what luacheck would print for it, without a file.
public struct LintFinding: Sendable, Equatable {
    public var warning: LuacheckWarning
    public var line: Int32
    public var column: Int32
    /// The variable, field, label or global the finding is about ("" when none).
    public var name: String
    /// A second detail: the line of an earlier definition (4xx, 314), a length (631), a
    /// kind word (`function`, `recursive function`, `vararg`, `self` for 2xx), the global a field
    /// belongs to (1xx).
    public var detail: String

    public init(_ warning: Int, line: Int32, column: Int32, name: String = "", detail: String = "") {
        self.warning = LuacheckWarning(warning)
        self.line = line
        self.column = column
        self.name = name
        self.detail = detail
    }

    public var location: SourceLocation { SourceLocation(line: Int(line), column: Int(column)) }
}

/// What the lint rules learn of one module: findings that need nothing but the module, and the
/// global accesses that need the project's environment to judge (1xx).
public struct LintFacts: Sendable, Equatable {
    /// 2xx, 3xx, 4xx, 5xx and 6xx findings, in the order found.
    public var findings: [LintFinding] = []
    /// Assignments to a global name (`x = 1`, `function x() end`): 111 or 121.
    public var globalSets: [GlobalAccess] = []
    /// Assignments to a field of a global (`x.y = 1`, `function x:m() end`): 112, 122 or 142.
    public var globalFieldSets: [GlobalAccess] = []
    /// Reads of a field Lua 5.4's library table does not have (`string.formt`): 143.
    public var unknownFieldReads: [GlobalAccess] = []
    /// Fields read from a required module's table (`global` is the module's name): FP481.
    public var moduleFieldReads: [GlobalAccess] = []
    /// Fields this module sets on a required module's table.
    public var moduleFieldWrites: [GlobalAccess] = []
    /// The fields the module's table surely has, nil when that is not known.
    public var exportedFields: [ExportedField]? = nil
    /// Arity (FP482, FP483): the functions the module's table surely has, the calls of
    /// required modules' fields, and the calls of local functions found wrong.
    public var exportedFunctions: [FunctionSignature] = []
    public var moduleCalls: [ModuleCall] = []
    public var arityFindings: [ArityFinding] = []

    /// A field of the module's own table and the line that sets it.
    public struct ExportedField: Sendable, Equatable {
        public var name: String
        public var line: Int32
    }

    public init() {}

    /// A global, or a field of one, at a place.
    public struct GlobalAccess: Sendable, Equatable {
        public var global: String
        public var field: String
        public var line: Int32
        public var column: Int32
        /// A field of another Lua version read where the code tests it (`math.pow or f`).
        public var isGuarded: Bool
        /// Set in the main chunk, outside every function (luacheck's `allow_defined_top`).
        public var isTopLevel: Bool

        public init(
            global: String, field: String = "", line: Int32, column: Int32, isGuarded: Bool = false,
            isTopLevel: Bool = false
        ) {
            self.global = global
            self.field = field
            self.line = line
            self.column = column
            self.isGuarded = isGuarded
            self.isTopLevel = isTopLevel
        }
    }
}
