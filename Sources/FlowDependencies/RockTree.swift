import FlowLua
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A rock LuaRocks installed into flowpkg's private tree: its Lua files, anything it put under
/// `lib/` (C), and what it depends on, read from its `rock_manifest` and rockspec.
struct InstalledRock {
    var name: String
    var version: String
    /// Paths under `share/lua/5.4/` (`pl/pretty.lua`).
    var luaFiles: [String]
    /// Paths under `lib/lua/5.4/` (`lfs.so`): C modules.
    var libFiles: [String]
    /// As the rockspec writes them, `lua` itself left out.
    var dependencies: [String]
    /// Why the rock is refused though it has no C code: what it installs that is not a Lua
    /// module (`Rockspec.refusal`); nil for a rock of Lua modules.
    var refusal: String? = nil
    /// The rockspec's text, for a rock read from its file (`RockspecGate.binaryRock`).
    var rockspec = ""

    /// `lfs.so` → `lfs`, `socket/core.so` → `socket.core`: the names `require` loads them by.
    var cModules: [String] { libFiles.map(Rockspec.moduleName(ofFile:)) }
}

/// Reading LuaRocks' Lua files (`rock_manifest`, rockspecs): each runs in FlowLua's sandbox
/// (`LuaSandbox`), in an environment of its own as LuaRocks runs it, within the sandbox's budget.
enum Rockspec {
    /// A rockspec or manifest larger than this is refused unread.
    static let maximumSize = 4 << 20

    /// The globals `source` sets, or the error that stopped it (its message names `chunkName`).
    static func globals(_ source: String, chunkName: String) throws -> [String: LuaValue] {
        try LuaSandbox(maximumSize: maximumSize).evaluate(Array(source.utf8), name: chunkName).globals
    }

    /// The globals `source` sets; none when it fails or passes its budget.
    static func evaluate(_ source: String, chunkName: String) -> [String: LuaValue] {
        (try? globals(source, chunkName: chunkName)) ?? [:]
    }

    /// `pl/pretty.lua` → `pl.pretty`, `foo/init.lua` → `foo`, `lfs.so` → `lfs`.
    static func moduleName(ofFile path: String) -> String {
        var base = path
        if let dot = base.lastIndex(of: "."), !base[dot...].contains("/") { base = String(base[..<dot]) }
        if base.hasSuffix("/init") { base = String(base.dropLast(5)) }
        return base.replacingAll("/", with: ".")
    }

    /// Every file path a `rock_manifest` table lists below a key (`lua`, `lib`), nested tables being folders.
    static func files(in value: LuaValue?, prefix: String = "") -> [String] {
        switch value {
        case .table(let entries)?:
            return entries.keys.sorted().flatMap { key -> [String] in
                let path = prefix.isEmpty ? key : prefix + "/" + key
                if case .table = entries[key] { return files(in: entries[key], prefix: path) }
                return [path]
            }
        default: return []
        }
    }

    /// The C modules a rockspec builds, and whether it builds with something other than the
    /// builtin type (make, cmake, command), which may compile anything.
    static func cModules(ofRockspec source: String) -> (modules: [String], otherBuild: Bool) {
        let globals = evaluate(source, chunkName: "rockspec")
        guard case .table(let build)? = globals["build"] else { return ([], false) }
        let type = build["type"]?.stringValue ?? "builtin"
        var modules: [String] = []
        if case .table(let entries)? = build["modules"] {
            for (name, value) in entries {
                switch value {
                case .string(let file) where file.hasSuffix(".c") || file.hasSuffix(".cpp"): modules.append(name)
                case .table, .array: modules.append(name)
                default: break
                }
            }
        }
        let pure = ["builtin", "module", "none"]
        return (modules.sorted(), !pure.contains(type))
    }

    /// Why a rock is not one of pure Lua modules though it compiles nothing: what its rockspec
    /// builds or installs (`buildProblem`), or anything else its `rock_manifest` lists.
    static func refusal(ofRockspec source: String, manifest: [String: LuaValue], rockspecName: String) -> String? {
        if let problem = buildProblem(ofRockspec: source) { return problem }
        let known: Set<String> = ["lua", "lib", "doc", rockspecName]
        if let key = manifest.keys.sorted().first(where: { !known.contains($0) }) {
            return "it installs '\(key)', which is not a Lua module"
        }
        return nil
    }

    /// The strings of a Lua list or table's values.
    static func values(of value: LuaValue?) -> [String] {
        switch value {
        case .array(let list)?: return list.compactMap(\.stringValue)
        case .table(let entries)?: return entries.keys.sorted().compactMap { entries[$0]?.stringValue }
        default: return []
        }
    }

    /// The `dependencies` of a rockspec, `lua` itself left out.
    static func dependencies(ofRockspec source: String) -> [String] {
        dependencies(in: evaluate(source, chunkName: "rockspec"))
    }

    /// The `dependencies` of an evaluated rockspec, `lua` itself left out.
    static func dependencies(in globals: [String: LuaValue]) -> [String] {
        guard case .array(let list)? = globals["dependencies"] else { return [] }
        return list.compactMap(\.stringValue).filter { !$0.hasPrefix("lua ") && $0 != "lua" && !$0.hasPrefix("lua>") }
    }

    /// The rocks installed in `tree`, sorted by name.
    static func installedRocks(in tree: String) -> [InstalledRock] {
        let rocks = tree + "/lib/luarocks/rocks-5.4"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: rocks)) ?? []).filter { $0 != "manifest" }
        var installed: [InstalledRock] = []
        for name in names.sorted() {
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: rocks + "/" + name)) ?? []
            for version in versions.sorted() {
                let folder = rocks + "/" + name + "/" + version
                let manifestText =
                    FileManager.default.contents(atPath: folder + "/rock_manifest")
                    .map { String(decoding: $0, as: UTF8.self) } ?? ""
                let manifest = evaluate(manifestText, chunkName: "rock_manifest")
                guard case .table(let entries)? = manifest["rock_manifest"] else { continue }
                let rockspecText =
                    FileManager.default.contents(atPath: folder + "/\(name)-\(version).rockspec")
                    .map { String(decoding: $0, as: UTF8.self) } ?? ""
                let rockspecName = "\(name)-\(version).rockspec"
                installed.append(
                    InstalledRock(
                        name: name, version: version, luaFiles: files(in: entries["lua"]),
                        libFiles: files(in: entries["lib"]), dependencies: dependencies(ofRockspec: rockspecText),
                        refusal: refusal(ofRockspec: rockspecText, manifest: entries, rockspecName: rockspecName)))
            }
        }
        return installed
    }
}

/// What a rockspec says, for `flowpkg init` adopting a rock's code.
public struct RockspecSummary: Sendable, Equatable {
    public var package: String?
    public var version: String?
    /// As written (`penlight >= 1.13`), `lua` itself left out.
    public var dependencies: [String]
    /// `build.modules`: module name → the file it is built from.
    public var modules: [String: String]
    /// `build.install.bin`: command name → script.
    public var scripts: [String: String]

    /// Reads `source`, run as Lua in an empty table as LuaRocks does.
    public init(source: String) {
        let globals = Rockspec.evaluate(source, chunkName: "rockspec")
        package = globals["package"]?.stringValue
        version = globals["version"]?.stringValue
        dependencies = Rockspec.dependencies(in: globals)
        modules = [:]
        scripts = [:]
        if case .table(let build)? = globals["build"] {
            if case .table(let entries)? = build["modules"] {
                for (name, value) in entries { if let file = value.stringValue { modules[name] = file } }
            }
            if case .table(let install)? = build["install"], case .table(let bin)? = install["bin"] {
                for (name, value) in bin { if let file = value.stringValue { scripts[name] = file } }
            }
        }
    }
}
