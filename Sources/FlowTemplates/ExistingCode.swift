import FlowDependencies
import FlowJSON
import FlowLua
import FlowPackage
import FlowProject
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Lua code a folder already has, and the flowpkg.json that adopts it: `flowpkg init` in a
/// folder with `.lua` files writes no template modules, only this.
///
/// `sources` is the folder that makes the most `require`s resolve (a top-level `main.lua` with
/// `lib/util.lua` required as `lib.util` means `"."`); the start module is `main` or `init`
/// there, or a script a rockspec installs; a rockspec gives the dependencies, a `.luacheckrc`
/// the globals, and a `require` only the system's Lua C path satisfies becomes an external module.
public struct ExistingCode: Sendable, Equatable {
    public var sources: String
    /// The start module chosen, nil for a library or when it is ambiguous (see `startCandidates`).
    public var startModule: String?
    /// More than one candidate: the caller asks, or says how to set it.
    public var startCandidates: [String]
    /// `name` → constraint, from a rockspec.
    public var dependencies: [(name: String, constraint: String)]
    public var globals: [String]
    public var externalModules: [String]
    public var version: String?
    /// What was decided and why, one line each, for the user.
    public var decisions: [String]
    /// Folders of assets (`data/`, `assets/`, …) offered as `resources`.
    public var resources: [String] = []
    /// Spec folders (`spec/`, `test/`, `tests/`): `tests`, never packaged.
    public var tests: [String] = []
    /// Folders under the sources that are not the program (`bench/`, `examples/`): `exclude`.
    public var exclude: [String] = []
    /// The luacheck std of the host the tree is written for (`luajit+love`, `luajit+nvim`), for
    /// a `.luacheckrc` when the tree has none.
    public var luacheckStd: String? = nil
    /// Requires no file of the tree, no standard module and no C module of this system
    /// satisfies, sorted: `findRocks` looks them up on the rocks servers.
    public var missingRequires: [String] = []
    /// Rocks servers given to init (`--rocks-server`): flowpkg.json lists them.
    public var rocksServers: [String] = []
    /// Whether that `.luacheckrc` counts globals set at a file's top level as defined
    /// (`allow_defined_top`): how a LÖVE game is written, and what its authors' own configs say.
    public var allowsDefinedTop = false

    public init(
        sources: String, startModule: String?, startCandidates: [String],
        dependencies: [(name: String, constraint: String)], globals: [String], externalModules: [String],
        version: String?, decisions: [String]
    ) {
        self.sources = sources
        self.startModule = startModule
        self.startCandidates = startCandidates
        self.dependencies = dependencies
        self.globals = globals
        self.externalModules = externalModules
        self.version = version
        self.decisions = decisions
    }

    public static func == (lhs: ExistingCode, rhs: ExistingCode) -> Bool {
        lhs.sources == rhs.sources && lhs.startModule == rhs.startModule && lhs.decisions == rhs.decisions
    }

    /// Folders never searched for code.
    static let skipped: Set<String> = [
        ".git", ".hg", ".svn", "node_modules", ".build", "vendor", ".luarocks", "lua_modules",
    ]

    /// Larger files are not read for their requires: validate refuses them (FP303).
    static let maximumFileSize = 8 << 20

    /// The code in `folder`, or nil when it has no `.lua` file.
    public static func scan(_ folder: URL) -> ExistingCode? {
        let root = folder.standardizedFileURL.path
        let files = luaFiles(in: root)
        guard !files.isEmpty else { return nil }
        var decisions: [String] = []
        let rockspec = readRockspec(in: root, decisions: &decisions)
        let requires = files.flatMap { requiredNames(inFileAt: root + "/" + $0) }
        let sources = chooseSources(files, requires: requires, rockspec: rockspec, decisions: &decisions)
        let names = moduleNames(files, under: sources)
        let starts = startCandidates(files, sources: sources, rockspec: rockspec)
        var startModule: String?
        if starts.count == 1 {
            startModule = starts[0]
            decisions.append("startModule: \"\(starts[0])\"")
        } else if starts.isEmpty {
            decisions.append("no startModule (no main.lua or init.lua at the top of the sources): a library")
        }
        let dependencies = rockspecDependencies(rockspec)
        if !dependencies.isEmpty {
            decisions.append(
                "dependencies: " + dependencies.map { "\($0.name) \($0.constraint)" }.joined(separator: ", ")
                    + " (from the rockspec)")
        }
        let globals = LuacheckGlobals.names(inFolder: folder).filter {
            ModuleName.isLuaIdentifier(Substring($0.replacingAll("*", with: "x")))
        }
        if !globals.isEmpty { decisions.append("globals: \(globals.count) from .luacheckrc") }

        // A require no file here satisfies but the system's C path does (lfs, lpeg): the host's.
        let unresolved = Set(requires.filter { !names.contains($0) && !standardModules.contains($0) })
        let external = unresolved.sorted().filter { cPathHas($0) }
        if !external.isEmpty {
            decisions.append(
                "externalModules: " + external.joined(separator: ", ") + " (C modules this system's Lua finds)")
        }
        var version: String?
        if let full = rockspec?.version, let upstream = full.split(separator: "-").first,
            ProjectFile.versionProblem(String(upstream)) == nil
        {
            version = String(upstream)
        }
        var code = ExistingCode(
            sources: sources, startModule: startModule, startCandidates: starts.count > 1 ? starts : [],
            dependencies: dependencies, globals: globals, externalModules: external, version: version,
            decisions: decisions)
        code.missingRequires = unresolved.subtracting(external).sorted()
        code.readShape(root: root, files: files, required: Set(requires))
        return code
    }

    /// A rockspec: its modules say where the sources are, its dependencies are ours.
    static func readRockspec(in root: String, decisions: inout [String]) -> RockspecSummary? {
        guard let name = rockspecFile(in: root),
            let bytes = try? LuaSandbox(maximumSize: 4 << 20).contents(ofFileAt: root + "/" + name, name: name)
        else { return nil }
        decisions.append("read \(name)")
        return RockspecSummary(source: String(decoding: bytes, as: UTF8.self))
    }

    /// The folder the rockspec builds from, else the one under which the most requires name a
    /// file (ties to one with main.lua or init.lua at its top, then to the shallower one).
    static func chooseSources(
        _ files: [String], requires: [String], rockspec: RockspecSummary?, decisions: inout [String]
    ) -> String {
        var candidates = Set<String>(["."])
        for file in files {
            var parts = file.split(separator: "/").dropLast()
            while !parts.isEmpty {
                candidates.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        if let modules = rockspec?.modules, let root = rockspecRoot(modules) {
            decisions.append("sources: [\"\(root)\"] (the rockspec builds its modules from there)")
            return root
        }
        var best = (count: -1, start: false, depth: 0, folder: ".")
        for candidate in candidates.sorted() {
            let names = moduleNames(files, under: candidate)
            guard !names.isEmpty else { continue }
            let resolved = requires.filter(names.contains).count
            let depth = candidate == "." ? 0 : candidate.split(separator: "/").count
            let start = ["main", "Main", "init"].contains { names.contains($0) }
            let better =
                resolved > best.count
                || (resolved == best.count && start && !best.start)
                || (resolved == best.count && start == best.start && depth < best.depth)
            if better { best = (resolved, start, depth, candidate) }
        }
        decisions.append(
            "sources: [\"\(best.folder)\"] (\(best.count) of \(requires.count) requires resolve there)")
        return best.folder
    }

    /// main or init at the top of the sources, else the scripts the rockspec installs.
    static func startCandidates(_ files: [String], sources: String, rockspec: RockspecSummary?) -> [String] {
        let prefix = sources == "." ? "" : sources + "/"
        var starts = ["main", "Main", "init"].filter { files.contains(prefix + $0 + ".lua") }
        if starts.isEmpty, let scripts = rockspec?.scripts {
            for (_, script) in scripts.sorted(by: { $0.key < $1.key })
            where script.hasPrefix(prefix) && script.hasSuffix(".lua") {
                starts.append(String(script.dropFirst(prefix.count).dropLast(4)).replacingAll("/", with: "."))
            }
        }
        return starts
    }

    /// The rockspec's dependencies flowpkg.json can hold, as (name, constraint).
    static func rockspecDependencies(_ rockspec: RockspecSummary?) -> [(name: String, constraint: String)] {
        var dependencies: [(name: String, constraint: String)] = []
        for entry in rockspec?.dependencies ?? [] {
            let parts = entry.split(separator: " ", maxSplits: 1)
            guard let name = parts.first.map(String.init), DependencyDeclaration.nameProblem(name) == nil else {
                continue
            }
            let constraint = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
            guard constraint.isEmpty || DependencyDeclaration.constraintProblem(constraint) == nil else { continue }
            dependencies.append((name, constraint))
        }
        return dependencies
    }

    /// flowpkg.json for this code.
    public func projectFileText(name: String, identifier: String, startModule: String?) -> String {
        var lines = [
            "  \"name\": \(JSONText.quoted(name))",
            "  \"identifier\": \(JSONText.quoted(identifier))",
            "  \"version\": \(JSONText.quoted(version ?? "0.1.0"))",
        ]
        if let startModule { lines.append("  \"startModule\": \(JSONText.quoted(startModule))") }
        lines.append("  \"sources\": [\(JSONText.quoted(sources))]")
        lines.append("  \"resources\": [" + resources.map(JSONText.quoted).joined(separator: ", ") + "]")
        if !tests.isEmpty { lines.append("  \"tests\": [" + tests.map(JSONText.quoted).joined(separator: ", ") + "]") }
        if !exclude.isEmpty {
            lines.append("  \"exclude\": [" + exclude.map(JSONText.quoted).joined(separator: ", ") + "]")
        }
        lines.append("  \"environment\": \"lua\"")
        if !globals.isEmpty {
            lines.append("  \"globals\": [" + globals.map(JSONText.quoted).joined(separator: ", ") + "]")
        }
        if !externalModules.isEmpty {
            lines.append(
                "  \"externalModules\": [" + externalModules.map(JSONText.quoted).joined(separator: ", ") + "]")
        }
        if !rocksServers.isEmpty {
            lines.append("  \"rocksServers\": [" + rocksServers.map(JSONText.quoted).joined(separator: ", ") + "]")
        }
        if !dependencies.isEmpty {
            lines.append(
                "  \"dependencies\": {\n"
                    + dependencies.map { "    \(JSONText.quoted($0.name)): \(JSONText.quoted($0.constraint))" }
                    .joined(separator: ",\n") + "\n  }")
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    // MARK: - Reading the folder

    /// The `.lua` files under `root`, as a person would list them: directory links are not
    /// followed (a link to `.` or `/` would never end), and only regular files count (a FIFO
    /// named like a module is never opened).
    static func luaFiles(in root: String) -> [String] {
        var found: [String] = []
        func walk(_ relative: String) {
            let path = relative.isEmpty ? root : root + "/" + relative
            for entry in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() {
                if entry.hasPrefix(".") || skipped.contains(entry) { continue }
                let child = relative.isEmpty ? entry : relative + "/" + entry
                var info = stat()
                guard lstat(root + "/" + child, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: if found.count < 20000 { walk(child) }
                case S_IFREG where entry.hasSuffix(".lua"): found.append(child)
                case S_IFLNK where entry.hasSuffix(".lua"):
                    if stat(root + "/" + child, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { found.append(child) }
                default: break
                }
            }
        }
        walk("")
        return found
    }

    /// The rockspec a person would read: at the top, else the last in `rockspecs/`.
    static func rockspecFile(in root: String) -> String? {
        let names = { (folder: String) in
            ((try? FileManager.default.contentsOfDirectory(atPath: root + folder)) ?? []).filter {
                $0.hasSuffix(".rockspec")
            }.sorted()
        }
        if let top = names("").first { return top }
        return names("/rockspecs").last.map { "rockspecs/" + $0 }
    }

    /// The module names the files under `folder` have (`lib/util.lua` under `.` is `lib.util`).
    static func moduleNames(_ files: [String], under folder: String) -> Set<String> {
        let prefix = folder == "." ? "" : folder + "/"
        var names = Set<String>()
        for file in files where file.hasPrefix(prefix) {
            var stem = String(file.dropFirst(prefix.count).dropLast(4))
            if stem.contains(".") { continue }
            if stem.hasSuffix("/init") { stem = String(stem.dropLast(5)) }
            names.insert(stem.replacingAll("/", with: "."))
        }
        return names
    }

    /// The folder a rockspec's `build.modules` are under: `src` for `["a.b"] = "src/a/b.lua"`.
    static func rockspecRoot(_ modules: [String: String]) -> String? {
        var roots = Set<String>()
        for (name, file) in modules where file.hasSuffix(".lua") {
            let expected = name.replacingAll(".", with: "/")
            for tail in [expected + ".lua", expected + "/init.lua"] where file == tail || file.hasSuffix("/" + tail) {
                let root = String(file.dropLast(tail.count))
                roots.insert(root.isEmpty ? "." : String(root.dropLast()))
            }
        }
        return roots.count == 1 ? roots.first : nil
    }

    /// The names `require "x"`, `require("x")` and `require 'x'` ask for in a file.
    static func requiredNames(inFileAt path: String) -> [String] {
        // validate's cap (FP303): a 1 GB sparse file is not read whole.
        guard let bytes = try? LuaSandbox(maximumSize: maximumFileSize).contents(ofFileAt: path, name: path) else {
            return []
        }
        let word = Array("require".utf8)
        var names: [String] = []
        var index = 0
        while index + word.count < bytes.count {
            defer { index += 1 }
            guard bytes[index] == word[0], Array(bytes[index..<index + word.count]) == word else { continue }
            if index > 0, isIdentifierByte(bytes[index - 1]) { continue }
            var cursor = index + word.count
            while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x28 || bytes[cursor] == 0x09 {
                cursor += 1
            }
            guard cursor < bytes.count, bytes[cursor] == 0x22 || bytes[cursor] == 0x27 else { continue }
            let quote = bytes[cursor]
            var end = cursor + 1
            while end < bytes.count, bytes[end] != quote, bytes[end] != 0x0A { end += 1 }
            guard end < bytes.count, bytes[end] == quote else { continue }
            names.append(String(decoding: bytes[(cursor + 1)..<end], as: UTF8.self))
        }
        return names
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x5F
            || byte == 0x2E
            || byte == 0x3A
    }

    static let standardModules: Set<String> = [
        "string", "table", "math", "io", "os", "coroutine", "utf8", "debug", "package", "_G",
    ]

    /// Whether Lua 5.4's C path on this system finds `name` (as `require` would), looked at
    /// with `stat` alone: a FIFO or device named like a C module is never opened (issue 43).
    static func cPathHas(_ name: String, cpath: String = systemCPath) -> Bool {
        let file = name.replacingAll(".", with: "/")
        return cpath.split(separator: ";").contains { template in
            var info = stat()
            let path = String(template).replacingAll("?", with: file)
            return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
    }

    /// `package.cpath` of a fresh Lua 5.4 state (`LUA_CPATH_5_4`, `LUA_CPATH` or the default).
    static let systemCPath: String = {
        guard let state = try? LuaState() else { return "" }
        defer { state.close() }
        return (try? state.run("return package.cpath", chunkName: "=flowpkg"))?.first?.stringValue ?? ""
    }()
}
