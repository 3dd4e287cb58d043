import FlowDependencies
import FlowDiagnostics

/// How to validate: the switches `flowpkg validate` and `flowpkg export` share.
public struct ValidationOptions: Sendable {
    /// Warnings become errors (their severity is raised in the report).
    public var strict = false
    /// Replaces flowpkg.json's identifier (export's `--identifier`); checked by the same rules.
    public var identifier: String?
    /// Replaces flowpkg.json's version (export's `--version`, e.g. from a CI tag).
    public var version: String?
    /// Larger modules are refused (FP303): Lua would compile them, but no hand-written module
    /// is that big, and a package loads every module before it starts.
    public var maximumModuleSize = ValidationOptions.defaultMaximumModuleSize
    /// 8 MB: the size limit of every module, a dependency's too.
    public static let defaultMaximumModuleSize = 8 << 20
    /// How many files are checked at once; defaults to the number of cores.
    public var concurrency: Int?
    /// Linked files may lie outside the project's repository (`--allow-outside-links`; by
    /// default whether `FLOWPKG_ALLOW_OUTSIDE_LINKS=1`). Never from flowpkg.json.
    public var allowsOutsideLinks = OutsideLinks.allowedByEnvironment
    /// `--locked` (a path dependency changed since flowpkg.lock is an error) and where
    /// dependency files come from.
    public var dependencies = DependencyOptions()
    /// Whether LuaCATS annotations and inferred types are read and checked (FP901–FP910);
    /// `validate --no-types` turns it off.
    public var checksTypes = true
    /// Whether the session keeps the bytes it checked of each module and script file, for
    /// export to write them without reading the files again.
    var keepsCheckedBytes = false

    public init(strict: Bool = false, identifier: String? = nil, version: String? = nil) {
        self.strict = strict
        self.identifier = identifier
        self.version = version
    }
}

/// Everything validation found, sorted by file, line and column, with the counts a summary needs.
public struct ValidationReport: Sendable {
    /// The project, whenever its model could be built (even with content errors).
    public var project: Project?
    /// Sorted by file, line, column (diagnostics without a file first).
    public var diagnostics: [Diagnostic]
    public var moduleCount: Int
    public var resourceCount: Int

    public init(project: Project?, diagnostics: [Diagnostic], moduleCount: Int, resourceCount: Int) {
        self.project = project
        // Most callers pass findings already in order (`ValidationSession`): checking costs a
        // pass of comparisons, where sorting a copy would retain every finding's strings.
        let inOrder = diagnostics.indices.dropFirst().allSatisfy {
            !Self.precedes(diagnostics[$0], diagnostics[$0 - 1])
        }
        self.diagnostics = inOrder ? diagnostics : diagnostics.sorted(by: Self.precedes)
        self.moduleCount = moduleCount
        self.resourceCount = resourceCount
    }

    public var errorCount: Int { count(of: .error) }
    public var warningCount: Int { count(of: .warning) }

    /// Reads each finding's severity in place: `diagnostics.count { ... }` copies every
    /// finding, retaining its strings, and a report holds tens of thousands.
    private func count(of severity: Diagnostic.Severity) -> Int {
        var count = 0
        for index in diagnostics.indices where diagnostics[index].severity == severity { count += 1 }
        return count
    }
    /// True when anything must stop an export. Under `strict`, warnings were already raised to errors.
    public var hasErrors: Bool { errorCount > 0 }

    /// The order diagnostics are reported in: by file (byte order), line, column, then code.
    public static func precedes(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        switch (a.file, b.file) {
        case (nil, .some): return true
        case (.some, nil): return false
        case (.some(let x), .some(let y)) where x != y: return x.utf8.lexicographicallyPrecedes(y.utf8)
        default: break
        }
        if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
        if (a.column ?? 0) != (b.column ?? 0) { return (a.column ?? 0) < (b.column ?? 0) }
        if a.severity != b.severity { return a.severity < b.severity }
        if a.code != b.code { return a.code < b.code }
        return a.message < b.message
    }
}
