import FlowLua
import FlowPackage
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Rockspec {
    /// Why a rockspec's build is not one of plain Lua modules, read from the rockspec alone (through
    /// FlowLua's sandbox, with its budget): a build type other than builtin and none (make, cmake
    /// and command run commands), files installed by `build.install` other than `.lua` modules,
    /// folders copied by `build.copy_directories` other than `doc`, the same in any of
    /// `build.platforms`, or a rockspec the sandbox cannot read. Nil for plain Lua.
    static func buildProblem(ofRockspec source: String) -> String? {
        let globals: [String: LuaValue]
        do {
            globals = try Self.globals(source, chunkName: "rockspec")
        } catch {
            return "its rockspec cannot be read within flowpkg's limits: \(error)"
        }
        guard case .table(let build)? = globals["build"] else { return nil }
        var tables: [(place: String, table: [String: LuaValue])] = [("build", build)]
        if case .table(let platforms)? = build["platforms"] {
            for name in platforms.keys.sorted() {
                if case .table(let override)? = platforms[name] { tables.append(("build.platforms.\(name)", override)) }
            }
        }
        for (place, table) in tables {
            if let type = table["type"]?.stringValue ?? (place == "build" ? "builtin" : nil),
                !["builtin", "module", "none"].contains(type)
            {
                return "its rockspec builds with the '\(type)' build type, which runs commands"
            }
            if case .table(let install)? = table["install"] {
                if let key = install.keys.sorted().first(where: { $0 != "lua" }) {
                    return "it installs files with \(place).install.\(key), which are not Lua modules"
                }
                if let file = values(of: install["lua"]).first(where: { !$0.hasSuffix(".lua") }) {
                    return "\(place).install.lua installs '\(file)', which is not a Lua module"
                }
            }
            if let folder = values(of: table["copy_directories"]).first(where: { $0 != "doc" }) {
                return "\(place).copy_directories copies the folder '\(folder)', which holds no Lua modules"
            }
        }
        return nil
    }
}

/// Every rockspec is read by flowpkg before luarocks builds or installs anything of its rock
/// (issue 43, HIGH 1). luarocks runs with a guard (`Resources/luarocks-guard.lua`, its
/// `LUA_INIT`) that copies each rockspec flowpkg has not accepted into `folder` and processes only
/// its dependencies; `judge` then reads the new ones through the sandbox, refuses the first that
/// is not plain Lua, and marks the others accepted, for luarocks to run again and build them.
struct RockspecGate {
    /// Where the guard puts rockspecs (`NAME-VERSION.rockspec`) and finds them accepted
    /// (`NAME-VERSION.accepted`); it outlives one luarocks run.
    let folder: String

    /// The guard's file, written beside the rockspecs.
    var guardFile: String { folder + "/luarocks-guard.lua" }

    /// What luarocks' environment gets: the guard, run before luarocks' own code, and the folder.
    func environment() throws(DependencyError) -> [String: String?] {
        do {
            try AtomicOutput.write(PackageResources.luarocks_guard_lua, to: guardFile, creatingFolders: true)
        } catch {
            throw .io(error)
        }
        return [
            "LUA_INIT": "@" + guardFile, "LUA_INIT_5_2": nil, "LUA_INIT_5_3": nil, "LUA_INIT_5_4": nil,
            "FLOWPKG_ROCKSPECS": folder,
        ]
    }

    /// What `judge` read: how many files, and the binary rocks among them with C libraries
    /// (`lib/`), which the host must provide or the lock is refused.
    struct Judgement {
        var count = 0
        var binaryRocks: [InstalledRock] = []
    }

    /// Reads every rockspec and binary rock the guard copied since the last time: the first one
    /// that is not plain Lua is refused, the others accepted; a binary rock with C libraries is
    /// returned for the resolver to decide (the host's, or refused). How many were read (0:
    /// luarocks built what it installed, every file accepted before).
    func judge() throws(DependencyError) -> Judgement {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        var judgement = Judgement()
        for name in names where name.hasSuffix(".rockspec") || name.hasSuffix(".rock") {
            let base = String(name.dropLast(name.hasSuffix(".rock") ? ".rock".count : ".rockspec".count))
            let accepted = folder + "/" + base + ".accepted"
            // `.held`: a binary rock with C libraries, read once (the host's from then on, or refused).
            let held = folder + "/" + base + ".held"
            if FileManager.default.fileExists(atPath: accepted) || FileManager.default.fileExists(atPath: held) {
                continue
            }
            judgement.count += 1
            let path = folder + "/" + name
            let (rock, version) = RockResolver.rockNameAndVersion(ofFile: name)
            if name.hasSuffix(".rock") {
                let binary = try Self.binaryRock(at: path, name: rock, version: version)
                if !binary.libFiles.isEmpty {
                    judgement.binaryRocks.append(binary)
                    do {
                        try AtomicOutput.write([], to: held)
                    } catch {
                        throw .io(error)
                    }
                    continue
                }
                if let refusal = binary.refusal { throw .buildRefused(rock: rock, version: version, reason: refusal) }
            } else {
                try Self.judgeRockspec(at: path, rock: rock, version: version)
            }
            do {
                try AtomicOutput.write([], to: accepted)
            } catch {
                throw .io(error)
            }
        }
        return judgement
    }

    private static func judgeRockspec(at path: String, rock: String, version: String) throws(DependencyError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)).flatMap(FileManager.size(in:)) ?? 0
        guard size <= Rockspec.maximumSize, let data = FileManager.default.contents(atPath: path) else {
            throw .buildRefused(
                rock: rock, version: version,
                reason: "its rockspec is larger than \(Rockspec.maximumSize >> 20) MB or cannot be read")
        }
        if let problem = Rockspec.buildProblem(ofRockspec: String(decoding: data, as: UTF8.self)) {
            throw .buildRefused(rock: rock, version: version, reason: problem)
        }
    }

    /// A binary rock (a zip: `lua/`, `lib/`, `doc/`, its rockspec, `rock_manifest`) read as
    /// LuaRocks would install it, without installing it: its C libraries, its Lua files, and
    /// what else it would install (`Rockspec.refusal`, as for a rock already installed).
    static func binaryRock(at path: String, name: String, version: String) throws(DependencyError) -> InstalledRock {
        var entries: [String] = []
        var rockspec = ""
        let rockspecName = "\(name)-\(version).rockspec"
        do {
            let reader = try ArchiveReader(path: path)
            while let entry = try reader.nextEntry() {
                if entry.path == rockspecName {
                    rockspec = String(decoding: try reader.readData(limit: Rockspec.maximumSize), as: UTF8.self)
                } else {
                    try reader.skipData()
                }
                if entry.kind != .directory { entries.append(entry.path) }
            }
        } catch {
            throw .buildRefused(rock: name, version: version, reason: "its binary rock cannot be read: \(error)")
        }
        let under = { (folder: String) in
            entries.filter { $0.hasPrefix(folder + "/") }.map { String($0.dropFirst(folder.count + 1)) }
        }
        var manifest: [String: LuaValue] = [:]
        for entry in entries where entry != "rock_manifest" {
            manifest[String(entry.split(separator: "/", maxSplits: 1)[0])] = .bool(true)
        }
        return InstalledRock(
            name: name, version: version, luaFiles: under("lua"), libFiles: under("lib"),
            dependencies: Rockspec.dependencies(ofRockspec: rockspec),
            refusal: Rockspec.refusal(ofRockspec: rockspec, manifest: manifest, rockspecName: rockspecName),
            rockspec: rockspec)
    }
}
