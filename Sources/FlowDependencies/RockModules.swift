import FlowPackage
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which rocks on the rocks servers provide which modules, the way luarocks itself learns it: a
/// server's manifest lists rocks, not modules, so each rock's newest version is fetched
/// (`luarocks download`) and its modules read from what came: a rock's `lua/` and `lib/` files, or
/// a rockspec's `build.modules` (evaluated in FlowLua's sandbox). Each rock's list is kept in the
/// cache (`modules/`, under the SHA-256 of its server, name and version), so a rock is fetched
/// once; a rock added to a server since is found at the next look (luarocks' own manifest cache
/// is a run's own, `LuaRocks.configuration`).
public struct RockModules: Sendable {
    /// Rock name → the modules its newest version provides, sorted.
    public var modules: [String: [String]]

    /// Rocks read at most, per look: a public server lists thousands (say so when cut).
    public static let maximumRocks = 200

    public init(modules: [String: [String]]) { self.modules = modules }

    /// The modules of every rock `servers` list (URLs or folders), luarocks on `PATH` (or
    /// `$FLOWPKG_LUAROCKS`) fetching what the cache lacks.
    public static func look(servers: [String], cache: FileCache = .standard()) throws(DependencyError) -> RockModules {
        let luarocks = try LuaRocks.locate(servers: servers)
        let scratch =
            FileManager.default.temporaryDirectory.path
            + "/flowpkg-modules-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let output = try luarocks.run(
            ["search", "--porcelain", "--all"], tree: scratch + "/search-tree", scratch: scratch)
        guard output.succeeded else { throw .commandFailed(command: output.commandLine, output: output.combined) }
        var found: [String: [String]] = [:]
        for rock in newestRocks(inSearch: output.standardOutput).prefix(maximumRocks) {
            let key = SHA256.hex(of: Array("\(rock.server)\n\(rock.name)\n\(rock.version)".utf8))
            let kept = cache.root + "/modules/" + key
            if let data = FileManager.default.contents(atPath: kept) {
                found[rock.name] = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                continue
            }
            guard
                let file = try? luarocks.download(
                    rock.name, version: rock.version, into: scratch + "/" + key, scratch: scratch)
            else { continue }
            let names = modules(ofFile: file, name: rock.name, version: rock.version)
            try? AtomicOutput.write(Array(names.joined(separator: "\n").utf8), to: kept, creatingFolders: true)
            found[rock.name] = names
        }
        return RockModules(modules: found)
    }

    /// `luarocks search --porcelain --all`'s rocks (`name\tversion\tarch\tserver`), the newest
    /// version of each (luarocks lists them newest first), what the VM provides left out.
    static func newestRocks(inSearch text: String) -> [(name: String, version: String, server: String)] {
        var seen: Set<String> = []
        var rocks: [(name: String, version: String, server: String)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, fields[2] != "installed", seen.insert(fields[0]).inserted else { continue }
            rocks.append((fields[0], fields[1], fields[3]))
        }
        return rocks
    }

    /// The modules a downloaded rock or rockspec provides: Lua and C files of a rock, else the
    /// `build.modules` of the rockspec it is or holds.
    static func modules(ofFile path: String, name: String, version: String) -> [String] {
        var rockspec: String
        if path.hasSuffix(".rockspec") {
            guard let data = FileManager.default.contents(atPath: path), data.count <= Rockspec.maximumSize else {
                return []
            }
            rockspec = String(decoding: data, as: UTF8.self)
        } else {
            guard let rock = try? RockspecGate.binaryRock(at: path, name: name, version: version) else { return [] }
            let files = rock.luaFiles.filter { $0.hasSuffix(".lua") } + rock.libFiles
            if !files.isEmpty { return Set(files.map(Rockspec.moduleName(ofFile:))).sorted() }
            rockspec = rock.rockspec
        }
        return RockspecSummary(source: rockspec).modules.keys.sorted()
    }

    /// The rock that provides `module`, or else a module under the same first name (`pl` for
    /// `pl.pretty`): the hint for a `require` nothing in a tree satisfies. Ties go to the rock
    /// whose name sorts first.
    public func rock(providing module: String) -> String? {
        let first = module.split(separator: ".").first.map(String.init) ?? module
        let exact = modules.keys.sorted().first { modules[$0]?.contains(module) == true }
        return exact
            ?? modules.keys.sorted().first { rock in
                modules[rock]?.contains { $0 == first || $0.hasPrefix(first + ".") } == true
            }
    }
}
