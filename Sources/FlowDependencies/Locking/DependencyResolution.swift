import FlowDiagnostics
import FlowPackage
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Resolving flowpkg.json's dependencies into a lock: path and package dependencies read here,
/// with their own dependencies followed (`DependencyGraph`); rocks through LuaRocks.
extension DependencyLocking {
    static func resolveAndWrite(
        root: String, file: DependentProject, projectBytes: [UInt8]?, options: DependencyOptions, upgrade: Upgrade,
        workingDirectory: String, beforeWriting: ((inout Lockfile) -> [UInt8]?)? = nil
    ) -> Outcome {
        let lockPath = root + "/" + Lockfile.fileName
        do {
            let existing = try? Lockfile.read(at: lockPath)
            var lock = try resolve(
                root: root, file: file, existing: existing ?? nil, options: options, upgrade: upgrade,
                workingDirectory: workingDirectory)
            var bytes = projectBytes
            if let beforeWriting, let pinned = beforeWriting(&lock) { bytes = pinned }
            if let bytes { try writeProjectFile(bytes, root: root) }
            try lock.write(to: lockPath)
            return Outcome(lock: lock, changes: describeChanges(from: existing ?? nil, to: lock))
        } catch {
            return Outcome(
                lock: nil,
                diagnostics: [located(error.diagnostic, file: root + "/" + DependentProject.fileName)])
        }
    }

    /// flowpkg.json edited in place: written through a symbolic link to the file it names, its
    /// mode kept (FlowSupport's `AtomicOutput`).
    static func writeProjectFile(_ bytes: [UInt8], root: String) throws(DependencyError) {
        do {
            try AtomicOutput.write(bytes, to: root + "/" + DependentProject.fileName)
        } catch {
            throw .io(error)
        }
    }

    static func resolve(
        root: String, file: DependentProject, existing: Lockfile?, options: DependencyOptions, upgrade: Upgrade,
        workingDirectory: String
    ) throws(DependencyError) -> Lockfile {
        let graph = try DependencyGraph.walk(root: root, file: file, cache: options.cache, projects: options.projects)
        var dependencies = graph.pinned
        let rocks = try resolveRocks(
            file: file, root: root, existing: existing, options: options, upgrade: upgrade,
            workingDirectory: workingDirectory, forceFetch: false, transitive: graph.rocks)
        for rock in rocks.rocks {
            guard let index = dependencies.firstIndex(where: { $0.name == rock.name }) else { continue }
            let clash = dependencies[index]
            // A package built with the very rock the project uses: one copy, the rock's.
            if clash.requested == nil, clash.modules.map(\.sha256) == rock.modules.map(\.sha256) {
                dependencies.remove(at: index)
                continue
            }
            throw .dependencyNameClash(
                name: rock.name, first: "the rock '\(rock.name)' \(rock.version)",
                second: graph.source(of: clash.name) ?? "the \(clash.kind) dependency '\(clash.name)'")
        }
        dependencies += rocks.rocks
        // One module, one provider.
        var providers: [String: String] = [:]
        for dependency in dependencies {
            for module in dependency.modules {
                let provider =
                    graph.source(of: dependency.name) ?? "the \(dependency.kind) dependency '\(dependency.name)'"
                if let first = providers[module.name] {
                    throw .moduleProvidedTwice(module: module.name, first: first, second: provider)
                }
                providers[module.name] = provider
            }
        }
        return Lockfile(
            dependencies: markDevelopment(dependencies, declarations: file.dependencies),
            providedByHost: rocks.providedByHost)
    }

    /// The rocks: LuaRocks resolves them, unless the lock already pins exactly these requests
    /// (`transitive`: what path dependencies ask for) and the cache or vendor/ holds every file
    /// (then nothing runs, nothing is fetched).
    static func resolveRocks(
        file: DependentProject, root: String, existing: Lockfile?, options: DependencyOptions, upgrade: Upgrade,
        workingDirectory: String, forceFetch: Bool, transitive: [(name: String, constraint: String)]
    ) throws(DependencyError) -> RockResolver.Resolution {
        let requests = file.dependencies.compactMap { declaration -> (name: String, constraint: String)? in
            if case .rock(let constraint) = declaration.source { return (declaration.name, constraint) }
            return nil
        }
        guard !requests.isEmpty || !transitive.isEmpty else {
            return RockResolver.Resolution(rocks: [], providedByHost: [])
        }
        let lockedRocks = existing?.dependencies.filter { $0.kind == "rock" } ?? []
        let moving: Set<String> = {
            switch upgrade {
            case .none: return []
            case .all: return Set((requests + transitive).map(\.name))
            case .only(let names): return names
            }
        }()
        if !forceFetch, moving.isDisjoint(with: (requests + transitive).map(\.name)), let existing {
            let hostAsked = existing.providedByHost.filter { $0.requested != nil }
            let same =
                requests.allSatisfy { request in
                    lockedRocks.contains { $0.name == request.name && $0.requested == request.constraint }
                        || hostAsked.contains { $0.name == request.name && $0.requested == request.constraint }
                } && lockedRocks.filter { $0.requested != nil }.count + hostAsked.count == requests.count
                && DependencyGraph.rockLines(DependencyGraph.recordedRocks(in: existing))
                    == DependencyGraph.rockLines(transitive)
            let hostSame = existing.providedByHost.allSatisfy { $0.modules.allSatisfy(file.isExternalModule) }
            if same, hostSame, allRockFilesPresent(existing, root: root, cache: options.cache) {
                let kept = RockResolver.Resolution(rocks: lockedRocks, providedByHost: existing.providedByHost)
                return RockResolver.Resolution(
                    rocks: lockedRocks,
                    providedByHost: hostRocks(kept, requests: requests, transitive: transitive, previous: []))
            }
        }
        guard !options.offline else {
            throw .lockOutOfDate(reason: "the rocks must be resolved again, and --offline runs no luarocks")
        }
        let servers = options.servers(for: file, root: root, workingDirectory: workingDirectory)
        for server in servers where !server.contains("://") {
            guard FileManager.default.fileExists(atPath: server + "/manifest") else {
                throw .serverUnreachable(server: server, detail: "the folder has no manifest (or does not exist)")
            }
        }
        let luarocks = try LuaRocks.locate(servers: servers)
        var pins: [String: String] = [:]
        if upgrade != .all {
            // Only what the remaining requests still reach: a removed rock's dependencies go with it.
            var reachable = Set((requests + transitive).map(\.name))
            var queue = Array(reachable)
            while let name = queue.popLast() {
                for needed in lockedRocks.first(where: { $0.name == name })?.dependencies ?? [] {
                    let neededName = String(needed.split(separator: " ").first ?? "")
                    if reachable.insert(neededName).inserted { queue.append(neededName) }
                }
            }
            for rock in lockedRocks where !moving.contains(rock.name) && reachable.contains(rock.name) {
                pins[rock.name] = rock.version
            }
        }
        let resolver = RockResolver(luarocks: luarocks, cache: options.cache, isExternal: file.isExternalModule)
        let provided = Dictionary(
            uniqueKeysWithValues: (existing?.providedByHost ?? []).filter {
                $0.modules.allSatisfy(file.isExternalModule)
            }
            .map { ($0.name, $0.version) })
        var resolution = try resolver.resolve(requests, transitive: transitive, pins: pins, provided: provided)
        resolution.providedByHost = hostRocks(
            resolution, requests: requests, transitive: transitive, previous: existing?.providedByHost ?? [])
        return resolution
    }

    /// What the host provides that something still asks for (flowpkg.json, a path dependency or
    /// a locked rock: a removed rock's goes), with the constraint flowpkg.json gives it, and its
    /// modules from the previous lock when LuaRocks was told it is there.
    static func hostRocks(
        _ resolution: RockResolver.Resolution, requests: [(name: String, constraint: String)],
        transitive: [(name: String, constraint: String)], previous: [ProvidedRock]
    ) -> [ProvidedRock] {
        let needed = Set(
            (requests + transitive).map(\.name)
                + resolution.rocks.flatMap(\.dependencies).compactMap {
                    $0.split(separator: " ").first.map(String.init)
                })
        return resolution.providedByHost.filter { needed.contains($0.name) }.map { rock in
            var rock = rock
            if rock.modules.isEmpty, let earlier = previous.first(where: { $0.name == rock.name }) {
                rock.modules = earlier.modules
            }
            rock.requested = requests.first { $0.name == rock.name }?.constraint
            return rock
        }
    }

    static func allRockFilesPresent(_ lock: Lockfile, root: String, cache: FileCache) -> Bool {
        lock.dependencies.filter { $0.kind == "rock" }.allSatisfy { dependency in
            dependency.modules.allSatisfy { module in
                (try? VendorFolder.existing(root: root, dependency: dependency.name, path: module.path)) != nil
                    || FileManager.default.fileExists(atPath: cache.path(for: module.sha256))
            }
        }
    }

    static func describeChanges(from old: Lockfile?, to new: Lockfile) -> [String] {
        var changes: [String] = []
        for dependency in new.dependencies {
            if let before = old?.dependency(named: dependency.name) {
                if before.version != dependency.version {
                    changes.append("~ \(dependency.name) \(before.version) -> \(dependency.version)")
                } else if before.sha256 != dependency.sha256 || before.modules != dependency.modules {
                    let count = dependency.modules.count
                    changes.append(
                        "~ \(dependency.name) \(dependency.version): its files changed (\(count) "
                            + (count == 1 ? "module)" : "modules)"))
                }
            } else {
                changes.append(
                    "+ \(dependency.name) \(dependency.version) (\(dependency.kind), \(dependency.modules.count) "
                        + (dependency.modules.count == 1 ? "module)" : "modules)")
                )
            }
        }
        for dependency in old?.dependencies ?? [] where new.dependency(named: dependency.name) == nil {
            changes.append("- \(dependency.name) \(dependency.version)")
        }
        for rock in new.providedByHost where !(old?.providedByHost.contains(rock) ?? false) {
            changes.append(
                "= \(rock.name) \(rock.version) provided by the host (\(rock.modules.joined(separator: ", ")))")
        }
        for rock in old?.providedByHost ?? [] where !new.providedByHost.contains(where: { $0.name == rock.name }) {
            changes.append("- \(rock.name) \(rock.version) (provided by the host)")
        }
        return changes
    }
}
