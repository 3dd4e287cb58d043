import FlowDependencies
import FlowDiagnostics
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg lock`, `update`, `add`, `remove` and `vendor`, and export's first step: resolving
/// flowpkg.json's dependencies into flowpkg.lock. Rocks are resolved by LuaRocks
/// (`RockResolver`); path and package dependencies are read here. flowpkg.json is written
/// only after everything resolved, so a failure leaves it as it was.
public enum DependencyLocking {
    /// What may move: nothing locked (`lock`), everything (`update`), or some names (`update NAME`).
    public enum Upgrade: Sendable, Equatable {
        case none
        case all
        case only(Set<String>)
    }

    /// What an operation did: the lock written (nil on failure) and the problems found.
    public struct Outcome: Sendable {
        public var lock: Lockfile?
        public var diagnostics: [Diagnostic] = []
        /// What changed, in words, for the command to print (`+ inspect 3.1.1-1`).
        public var changes: [String] = []
        public var succeeded: Bool { lock != nil && !diagnostics.contains { $0.severity == .error } }
    }

    /// Resolves and writes flowpkg.lock for the project at `root`.
    public static func lock(
        projectAt root: URL, options: DependencyOptions, upgrade: Upgrade = .none,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Outcome {
        let rootPath = root.standardizedFileURL.path
        let read = readProjectFile(rootPath)
        guard let file = read.file else { return Outcome(lock: nil, diagnostics: read.diagnostics) }
        return resolveAndWrite(
            root: rootPath, file: file, projectBytes: nil, options: options, upgrade: upgrade,
            workingDirectory: workingDirectory)
    }

    /// What `add` is given: a rock name and constraint, a folder, or a package file.
    public enum Addition: Sendable {
        case rock(name: String, constraint: String?)
        case path(String)
        case package(String)
    }

    /// Adds a dependency to flowpkg.json (in place) and locks it.
    public static func add(
        _ addition: Addition, projectAt root: URL, options: DependencyOptions,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Outcome {
        let rootPath = root.standardizedFileURL.path
        let read = readProjectFile(rootPath)
        guard read.file != nil, let bytes = read.bytes else { return Outcome(lock: nil, diagnostics: read.diagnostics) }
        let projectFilePath = rootPath + "/" + ProjectFile.fileName
        let name: String
        var value: String
        var constraintToPin: String?
        switch addition {
        case .rock(let rock, let constraint):
            name = rock
            if let problem = DependencyDeclaration.nameProblem(rock) {
                return failure(.invalidDependency, "'\(rock)' is not a rock name: \(problem)", file: projectFilePath)
            }
            if let constraint, let problem = DependencyDeclaration.constraintProblem(constraint) {
                return failure(
                    .invalidDependency, "'\(constraint)' is not a LuaRocks constraint: \(problem)",
                    file: projectFilePath)
            }
            value = JSONStrings.quoted(constraint ?? "")
            if constraint == nil { constraintToPin = "" }
        case .path(let path):
            let folder = PathText.resolve(path, against: workingDirectory)
            let relative = relativePath(from: rootPath, to: folder)
            let decoded = readProjectFile(folder)
            guard let dependencyFile = decoded.file else {
                let reason =
                    FileManager.default.fileExists(atPath: folder)
                    ? (decoded.diagnostics.first?.message ?? "it is not a flowpkg project") : "there is no such folder"
                return Outcome(
                    lock: nil,
                    diagnostics: [DependencyError.pathUnusable(name: path, path: folder, reason: reason).diagnostic])
            }
            name =
                DependencyDeclaration.nameProblem(dependencyFile.name) == nil
                ? dependencyFile.name : PathText.lastComponent(of: folder)
            value = "{\"path\": \(JSONStrings.quoted(relative))}"
        case .package(let path):
            let file = PathText.resolve(path, against: workingDirectory)
            let relative = relativePath(from: rootPath, to: file)
            let manifest: Manifest
            do {
                manifest = try PackageReader.readManifest(at: URL(fileURLWithPath: file))
            } catch {
                let reason = FileManager.default.fileExists(atPath: file) ? "\(error)" : "there is no such file"
                return Outcome(
                    lock: nil,
                    diagnostics: [DependencyError.packageUnusable(name: path, path: file, reason: reason).diagnostic])
            }
            name = DependencyDeclaration.nameProblem(manifest.name) == nil ? manifest.name : "package"
            value = "{\"package\": \(JSONStrings.quoted(relative))}"
        }
        var editor = ProjectFileEditor(bytes: bytes)
        do {
            try editor.setDependency(name, value: value)
        } catch {
            return failure(.invalidProjectJSON, error.description, file: projectFilePath)
        }
        let edited = ProjectFileDecoder(path: projectFilePath).decode(editor.bytes)
        guard let file = edited.projectFile, !edited.diagnostics.contains(where: { $0.severity == .error }) else {
            return Outcome(lock: nil, diagnostics: edited.diagnostics)
        }
        // `add NAME` alone: LuaRocks picks the newest, and flowpkg.json gets `>= MAJOR.MINOR, < MAJOR+1`.
        var outcome = resolveAndWrite(
            root: rootPath, file: file, projectBytes: editor.bytes, options: options, upgrade: .only([name]),
            workingDirectory: workingDirectory,
            beforeWriting: { lock in
                guard constraintToPin != nil, let locked = lock.dependency(named: name) else { return nil }
                let constraint = compatibleConstraint(locked.version)
                var pinned = editor
                try? pinned.setDependency(name, value: JSONStrings.quoted(constraint))
                if let index = lock.dependencies.firstIndex(where: { $0.name == name }) {
                    lock.dependencies[index].requested = constraint
                }
                return pinned.bytes
            })
        if outcome.succeeded { outcome.changes.insert("added \(name) to \(ProjectFile.fileName)", at: 0) }
        return outcome
    }

    /// Removes a dependency from flowpkg.json (in place) and from the lock.
    public static func remove(
        _ name: String, projectAt root: URL, options: DependencyOptions,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Outcome {
        let rootPath = root.standardizedFileURL.path
        let read = readProjectFile(rootPath)
        guard read.file != nil, let bytes = read.bytes else { return Outcome(lock: nil, diagnostics: read.diagnostics) }
        let projectFilePath = rootPath + "/" + ProjectFile.fileName
        var editor = ProjectFileEditor(bytes: bytes)
        do {
            try editor.removeDependency(name)
        } catch {
            return failure(
                .invalidDependency, error.description, file: projectFilePath,
                hint: "the dependencies are: " + (read.file?.dependencies.map(\.name).joined(separator: ", ") ?? ""))
        }
        let edited = ProjectFileDecoder(path: projectFilePath).decode(editor.bytes)
        guard let file = edited.projectFile else { return Outcome(lock: nil, diagnostics: edited.diagnostics) }
        var outcome = resolveAndWrite(
            root: rootPath, file: file, projectBytes: editor.bytes, options: options, upgrade: .none,
            workingDirectory: workingDirectory)
        if outcome.succeeded { outcome.changes.insert("removed \(name) from \(ProjectFile.fileName)", at: 0) }
        return outcome
    }

    /// Export's first step. With `locked`, a missing or stale lock is an error; otherwise it is
    /// resolved again. Locked files the cache and vendor/ lack are fetched again (never with
    /// `offline`) and must hash as the lock says.
    public static func prepare(projectAt root: URL, options: DependencyOptions, workingDirectory: String)
        -> [Diagnostic]
    {
        let rootPath = root.standardizedFileURL.path
        let read = readProjectFile(rootPath)
        guard let file = read.file, !file.dependencies.isEmpty else { return [] }
        let lockPath = rootPath + "/" + Lockfile.fileName
        let existing: Lockfile?
        do {
            existing = try Lockfile.read(at: lockPath)
        } catch {
            return [LockedModules.located(error.diagnostic, file: lockPath)]
        }
        let stale =
            existing.map { $0.staleness(for: file.dependencies, isExternal: file.isExternalModule) }
            ?? "flowpkg.json lists dependencies, but there is no flowpkg.lock"
        if options.locked || options.offline {
            if let stale {
                let reason =
                    stale + (options.locked ? " (--locked forbids changing it)" : " (--offline cannot resolve)")
                return [LockedModules.located(DependencyError.lockOutOfDate(reason: reason).diagnostic, file: lockPath)]
            }
            if options.offline { return [] }
        }
        if stale != nil {
            return resolveAndWrite(
                root: rootPath, file: file, projectBytes: nil, options: options, upgrade: .none,
                workingDirectory: workingDirectory
            ).diagnostics
        }
        // Fill the cache for rocks whose files it lacks, checking them against the lock.
        guard let existing, !allRockFilesPresent(existing, root: rootPath, cache: options.cache) else { return [] }
        do {
            let refetched = try resolveRocks(
                file: file, root: rootPath, existing: existing, options: options, upgrade: .none,
                workingDirectory: workingDirectory, forceFetch: true)
            for locked in existing.dependencies where locked.kind == "rock" {
                guard let fetched = refetched.rocks.first(where: { $0.name == locked.name }) else { continue }
                for module in locked.modules {
                    let actual =
                        fetched.modules.first { $0.path == module.path }?.sha256 ?? "nothing (the file is gone)"
                    if actual != module.sha256 {
                        throw DependencyError.hashMismatch(
                            file: "\(locked.origin) (\(module.path))", expected: module.sha256, actual: actual)
                    }
                }
            }
        } catch let error as DependencyError {
            return [LockedModules.located(error.diagnostic, file: lockPath)]
        } catch {
            return []
        }
        return []
    }

    /// `flowpkg vendor`: every rock's and package's locked file under vendor/NAME/, checked first.
    public static func vendor(projectAt root: URL, options: DependencyOptions) -> Outcome {
        let rootPath = root.standardizedFileURL.path
        let lockPath = rootPath + "/" + Lockfile.fileName
        do {
            guard let lock = try Lockfile.read(at: lockPath) else {
                return Outcome(
                    lock: nil,
                    diagnostics: [
                        LockedModules.located(
                            DependencyError.lockOutOfDate(reason: "there is no flowpkg.lock to vendor").diagnostic,
                            file: lockPath)
                    ])
            }
            var outcome = Outcome(lock: lock)
            for dependency in lock.dependencies where dependency.kind != "path" {
                for module in dependency.modules {
                    let target = rootPath + "/vendor/" + dependency.name + "/" + module.path
                    guard let bytes = try options.cache.checkedContents(of: module.sha256) else {
                        throw DependencyError.unavailableOffline(dependency: dependency.name, file: module.path)
                    }
                    try AtomicWrite.write(bytes, to: target)
                }
                outcome.changes.append("vendor/\(dependency.name)/ (\(dependency.modules.count) files)")
            }
            return outcome
        } catch let error as DependencyError {
            return Outcome(lock: nil, diagnostics: [LockedModules.located(error.diagnostic, file: lockPath)])
        } catch {
            return Outcome(lock: nil, diagnostics: [])
        }
    }

    // MARK: - Resolution

    private static func resolveAndWrite(
        root: String, file: ProjectFile, projectBytes: [UInt8]?, options: DependencyOptions, upgrade: Upgrade,
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
            if let bytes { try AtomicWrite.write(bytes, to: root + "/" + ProjectFile.fileName) }
            try lock.write(to: lockPath)
            return Outcome(lock: lock, changes: describeChanges(from: existing ?? nil, to: lock))
        } catch {
            return Outcome(
                lock: nil,
                diagnostics: [LockedModules.located(error.diagnostic, file: root + "/" + ProjectFile.fileName)])
        }
    }

    static func resolve(
        root: String, file: ProjectFile, existing: Lockfile?, options: DependencyOptions, upgrade: Upgrade,
        workingDirectory: String
    ) throws(DependencyError) -> Lockfile {
        var dependencies: [LockedDependency] = []
        for declaration in file.dependencies {
            switch declaration.source {
            case .rock: continue
            case .path(let path):
                dependencies.append(try PathDependencies.lock(name: declaration.name, path: path, root: root))
            case .package(let path):
                dependencies.append(
                    try PackageDependencies.lock(name: declaration.name, path: path, root: root, cache: options.cache))
            }
        }
        let rocks = try resolveRocks(
            file: file, root: root, existing: existing, options: options, upgrade: upgrade,
            workingDirectory: workingDirectory, forceFetch: false)
        for rock in rocks.rocks {
            if let clash = dependencies.first(where: { $0.name == rock.name }) {
                throw .moduleProvidedTwice(
                    module: rock.name, first: "the rock '\(rock.name)'",
                    second: "the \(clash.kind) dependency '\(clash.name)'")
            }
        }
        dependencies += rocks.rocks
        // One module, one provider.
        var providers: [String: String] = [:]
        for dependency in dependencies {
            for module in dependency.modules {
                let provider = "the \(dependency.kind) dependency '\(dependency.name)'"
                if let first = providers[module.name] {
                    throw .moduleProvidedTwice(module: module.name, first: first, second: provider)
                }
                providers[module.name] = provider
            }
        }
        return Lockfile(dependencies: dependencies, providedByHost: rocks.providedByHost)
    }

    /// The rocks: LuaRocks resolves them, unless the lock already pins exactly these requests
    /// and the cache or vendor/ holds every file (then nothing runs, nothing is fetched).
    private static func resolveRocks(
        file: ProjectFile, root: String, existing: Lockfile?, options: DependencyOptions, upgrade: Upgrade,
        workingDirectory: String, forceFetch: Bool
    ) throws(DependencyError) -> RockResolver.Resolution {
        let requests = file.dependencies.compactMap { declaration -> (name: String, constraint: String)? in
            if case .rock(let constraint) = declaration.source { return (declaration.name, constraint) }
            return nil
        }
        guard !requests.isEmpty else { return RockResolver.Resolution(rocks: [], providedByHost: []) }
        let lockedRocks = existing?.dependencies.filter { $0.kind == "rock" } ?? []
        let moving: Set<String> = {
            switch upgrade {
            case .none: return []
            case .all: return Set(requests.map(\.name))
            case .only(let names): return names
            }
        }()
        if !forceFetch, moving.isDisjoint(with: requests.map(\.name)), let existing {
            let same =
                requests.allSatisfy { request in
                    lockedRocks.contains { $0.name == request.name && $0.requested == request.constraint }
                } && lockedRocks.filter { $0.requested != nil }.count == requests.count
            let hostSame = existing.providedByHost.allSatisfy { $0.modules.allSatisfy(file.isExternalModule) }
            if same, hostSame, allRockFilesPresent(existing, root: root, cache: options.cache) {
                return RockResolver.Resolution(rocks: lockedRocks, providedByHost: existing.providedByHost)
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
            var reachable = Set(requests.map(\.name))
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
        let externalModules = file.externalModules
        let probe = ProjectFile(name: "", identifier: "", version: "", externalModules: externalModules)
        let resolver = RockResolver(
            luarocks: luarocks, cache: options.cache, isExternal: { probe.isExternalModule($0) })
        let provided = Dictionary(
            uniqueKeysWithValues: (existing?.providedByHost ?? []).filter {
                $0.modules.allSatisfy(file.isExternalModule)
            }
            .map { ($0.name, $0.version) })
        var resolution = try resolver.resolve(requests, pins: pins, provided: provided)
        // Keep what the host provides from a previous lock, with its modules.
        for index in resolution.providedByHost.indices where resolution.providedByHost[index].modules.isEmpty {
            if let previous = existing?.providedByHost.first(where: { $0.name == resolution.providedByHost[index].name }
            ) {
                resolution.providedByHost[index].modules = previous.modules
            }
        }
        return resolution
    }

    private static func allRockFilesPresent(_ lock: Lockfile, root: String, cache: FileCache) -> Bool {
        lock.dependencies.filter { $0.kind == "rock" }.allSatisfy { dependency in
            dependency.modules.allSatisfy { module in
                FileManager.default.fileExists(atPath: root + "/vendor/" + dependency.name + "/" + module.path)
                    || FileManager.default.fileExists(atPath: cache.path(for: module.sha256))
            }
        }
    }

    private static func describeChanges(from old: Lockfile?, to new: Lockfile) -> [String] {
        var changes: [String] = []
        for dependency in new.dependencies {
            let before = old?.dependency(named: dependency.name)
            if before == nil {
                changes.append(
                    "+ \(dependency.name) \(dependency.version) (\(dependency.kind), \(dependency.modules.count) modules)"
                )
            } else if before!.version != dependency.version {
                changes.append("~ \(dependency.name) \(before!.version) -> \(dependency.version)")
            }
        }
        for dependency in old?.dependencies ?? [] where new.dependency(named: dependency.name) == nil {
            changes.append("- \(dependency.name) \(dependency.version)")
        }
        for rock in new.providedByHost where !(old?.providedByHost.contains(rock) ?? false) {
            changes.append(
                "= \(rock.name) \(rock.version) provided by the host (\(rock.modules.joined(separator: ", ")))")
        }
        return changes
    }

    // MARK: - Helpers

    struct ReadProjectFile {
        var file: ProjectFile?
        var bytes: [UInt8]?
        var diagnostics: [Diagnostic]
    }

    static func readProjectFile(_ root: String) -> ReadProjectFile {
        let path = root + "/" + ProjectFile.fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            return ReadProjectFile(
                file: nil, bytes: nil,
                diagnostics: [
                    Diagnostic(
                        severity: .error, code: .projectUnreadable, message: "no \(ProjectFile.fileName) in \(root)",
                        file: path, hint: "run the command in a project folder, or create one with 'flowpkg new'")
                ])
        }
        let bytes = [UInt8](data)
        let decoded = ProjectFileDecoder(path: path).decode(bytes)
        let errors = decoded.diagnostics.filter { $0.severity == .error }
        return ReadProjectFile(file: errors.isEmpty ? decoded.projectFile : nil, bytes: bytes, diagnostics: errors)
    }

    /// `>= 1.2, < 2` for 1.2.3-1 (`>= 0.3, < 0.4` for 0.3.1-1): what `add NAME` records, so
    /// `update` moves within the release line, as cargo's `^1.2` does.
    static func compatibleConstraint(_ version: String) -> String {
        let parts = version.split(separator: "-")[0].split(separator: ".").map(String.init)
        let major = Int(parts.first ?? "") ?? 0
        let minor = parts.count > 1 ? parts[1] : "0"
        let lower = ">= \(major).\(minor)"
        if major == 0, let minorNumber = Int(minor) { return lower + ", < 0.\(minorNumber + 1)" }
        return lower + ", < \(major + 1)"
    }

    /// `to` relative to the folder `from` (both absolute), as flowpkg.json should record it.
    static func relativePath(from: String, to: String) -> String {
        let base = from.split(separator: "/")
        let target = to.split(separator: "/")
        var common = 0
        while common < base.count, common < target.count, base[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        let rest = target[common...].map(String.init)
        let parts = ups + rest
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    private static func failure(_ code: DiagnosticCode, _ message: String, file: String, hint: String? = nil) -> Outcome
    {
        Outcome(
            lock: nil, diagnostics: [Diagnostic(severity: .error, code: code, message: message, file: file, hint: hint)]
        )
    }
}
