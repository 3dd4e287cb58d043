import FlowAnalysis
import FlowDependencies
import FlowPackage

/// A project's `flowpkg.json`, decoded: what the project is called and where its files are.
public struct ProjectFile: Sendable, Equatable {
    /// One entry of `resources`: a folder inside the project, or a linked file or folder anywhere.
    public enum ResourceEntry: Sendable, Equatable {
        /// `"Resources"`: every file under this project-relative folder, named by its path in it.
        case folder(String)
        /// `{"path": "../texts/h2g2.txt", "name": "h2g2"}`: one file named `name` (type from its
        /// extension), or every file under a folder prefixed by `name/`. Without a name, the
        /// file's or folder's own name is used.
        case linked(path: String, name: String?)
    }

    /// The file name a project folder holds.
    public static let fileName = DependentProject.fileName
    /// The environments flowpkg knows the host globals of.
    public static let knownEnvironments = Environment.knownNames
    /// Every key `flowpkg.json` may hold; others are reported as unknown (FP103).
    public static let knownKeys = [
        "name", "identifier", "version", "startModule", "sources", "resources", "environment",
        "globals", "externalModules",
        "ignore",
        "runtimeVersion",
        "dependencies", "rocksServers", devDependenciesKey, "tests",
        "types", "exclude",
    ]
    /// The key of the dependencies only the project's tests use (luassert, say).
    public static let devDependenciesKey = DependentProject.devDependenciesKey

    /// The product name: the package is `<name>-<version>.luapkg`.
    public var name: String
    /// The package identifier, reverse-DNS; checked by `PackageIdentifier`.
    public var identifier: String
    public var version: String
    /// The module a host runs first; a library has none.
    public var startModule: String?
    /// Project-relative folders holding Lua modules.
    public var sources: [String]
    public var resources: [ResourceEntry]
    /// What the host provides: `lua` or `codeflow-ios`.
    public var environment: String
    /// Extra globals the host defines, for hosts of your own.
    public var globals: [String]
    /// Modules the host provides: full names (`lpeg`), or `MyHost.*` for `MyHost` and every `MyHost.x`.
    public var externalModules: [String]
    /// Static-analysis findings not to report: `"FP405"` everywhere, or `{"code": "FP406",
    /// "path": "Resources/runtime/*"}` for files matching a glob relative to the project folder.
    public var ignore: [IgnoreRule] = []
    /// Project-relative folders of LuaCATS definition files (`---@meta`): read for types by
    /// validate and lsp, never packaged.
    public var types: [String] = []
    /// Globs relative to the project folder (luacheck's: `*` within a folder, `**` across any,
    /// a plain path covers its folder): matching files are neither modules, scripts nor
    /// resources, so validate never reads them and export never packages them.
    public var exclude: [String] = []

    /// One entry of `ignore`.
    public struct IgnoreRule: Sendable, Equatable {
        /// A static-analysis or lint code, `FP401` to `FP481`.
        public var code: String
        /// A glob over project-relative paths (`*` matches any characters, `/` included); nil for every file.
        public var path: String?

        public init(code: String, path: String? = nil) {
            self.code = code
            self.path = path
        }
    }
    /// The host runtime the package needs, written to the manifest; a host declaring another
    /// refuses downloaded updates built for it. Nil leaves it out.
    public var runtimeVersion: String? = nil
    /// `dependencies`: rocks, path and package dependencies, in the order written.
    public var dependencies: [DependencyDeclaration] = []
    /// `rocksServers`: where rocks come from (URLs or folders); LuaRocks' default when empty.
    public var rocksServers: [String] = []
    /// `tests`: the folders (or files) `flowpkg test` finds spec files in, relative to the
    /// project; empty leaves it to `.busted` or busted's default, `spec`.
    public var tests: [String] = []

    public init(
        name: String, identifier: String, version: String, startModule: String? = nil,
        sources: [String] = ["Sources"], resources: [ResourceEntry] = [.folder("Resources")],
        environment: String = "lua", globals: [String] = [], externalModules: [String] = []
    ) {
        self.name = name
        self.identifier = identifier
        self.version = version
        self.startModule = startModule
        self.sources = sources
        self.resources = resources
        self.environment = environment
        self.globals = globals
        self.externalModules = externalModules
    }

    /// Why `value` cannot be a product name (it becomes a file name), or nil when it can.
    public static func nameProblem(_ value: String) -> String? {
        if value.trimmingWhitespace().isEmpty { return "it is empty" }
        if value.utf8.count > 200 { return "it is longer than 200 bytes" }
        if value == "." || value == ".." || value.hasPrefix(".") { return "it may not start with '.'" }
        for scalar in value.unicodeScalars
        where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "/" || scalar == "\\" || scalar == ":" {
            return "it may not contain '/', '\\', ':' or control characters (it becomes a file name)"
        }
        return nil
    }

    /// Why `value` cannot be a version (it becomes part of a file name), or nil when it can.
    ///
    /// A version starts with a digit and holds ASCII letters, digits, `.`, `-` and `+`
    /// (`1.0.0`, `2.1.0-beta.1+42`).
    public static func versionProblem(_ value: String) -> String? {
        if value.isEmpty { return "it is empty" }
        if value.utf8.count > 64 { return "it is longer than 64 characters" }
        guard let first = value.utf8.first, (48...57).contains(first) else {
            return "it must start with a digit, like 1.0.0"
        }
        for byte in value.utf8 {
            let ok =
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            if !ok { return "use only ASCII letters, digits, '.', '-' and '+', like 1.0.0 or 2.0.0-beta.1" }
        }
        return nil
    }

    /// Why `value` is not an `externalModules` entry: a module name, or a prefix followed by `.*`.
    public static func externalModuleProblem(_ value: String) -> String? {
        Manifest.externalModuleProblem(value)
    }

    /// The folders of spec files: `tests`, or busted's default, `spec`.
    public var specFolders: [String] { tests.isEmpty ? ["spec"] : tests }

    /// Whether the file at `path` (relative to the project folder) is a spec or a spec's helper:
    /// under a spec folder, or named `*_spec.lua`. Validated with busted's globals, never packaged.
    public func isSpecFile(_ path: String) -> Bool {
        if path.hasSuffix("_spec.lua") { return true }
        return specFolders.contains { folder in
            let trimmed = folder.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
            return !trimmed.isEmpty && (path == trimmed || path.hasPrefix(trimmed + "/"))
        }
    }

    /// Whether `exclude` leaves out the file at `relativePath` (relative to the project folder).
    public func isExcluded(_ relativePath: String) -> Bool {
        exclude.contains { LuacheckGlob.matches($0, relativePath) }
    }

    /// Whether `module` is among `externalModules`, by exact name or by a `Prefix.*` entry.
    public func isExternalModule(_ module: String) -> Bool {
        externalModules.contains { entry in
            if entry.hasSuffix(".*"), !entry.dropLast(2).contains("*") {
                return module == entry.dropLast(2) || module.hasPrefix(entry.dropLast(1))
            }
            return entry.contains("*") ? Environment.glob(entry, matches: module) : module == entry
        }
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return Substring(scalars[first...last])
    }
}
