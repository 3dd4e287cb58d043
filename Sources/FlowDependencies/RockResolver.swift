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

/// Resolves rock dependencies by having LuaRocks install them into a private tree (its own
/// resolver picks every version), then pins what it installed: each rock's file and each Lua
/// module by SHA-256, the modules kept in the cache.
public struct RockResolver {
    public var luarocks: LuaRocks
    public var cache: FileCache
    /// Whether a C module is the host's (`externalModules`).
    public var isExternal: @Sendable (String) -> Bool

    public init(luarocks: LuaRocks, cache: FileCache, isExternal: @escaping @Sendable (String) -> Bool) {
        self.luarocks = luarocks
        self.cache = cache
        self.isExternal = isExternal
    }

    /// What resolution gives: every rock pinned (the top-level ones with what was asked for),
    /// and the rocks the host provides.
    public struct Resolution: Sendable {
        public var rocks: [LockedDependency]
        public var providedByHost: [ProvidedRock]

        public init(rocks: [LockedDependency], providedByHost: [ProvidedRock]) {
            self.rocks = rocks
            self.providedByHost = providedByHost
        }
    }

    /// Resolves `requests` (name → constraint, what flowpkg.json asks for) and `transitive`
    /// (what path dependencies ask for: the same rock's constraints are joined into one).
    /// `pins` (name → version, from the lock) are kept where they still satisfy the
    /// constraints, so nothing locked moves unless asked.
    public func resolve(
        _ requests: [(name: String, constraint: String)], transitive: [(name: String, constraint: String)] = [],
        pins: [String: String] = [:], provided initiallyProvided: [String: String] = [:]
    ) throws(DependencyError) -> Resolution {
        guard !requests.isEmpty || !transitive.isEmpty else { return Resolution(rocks: [], providedByHost: []) }
        let wanted = Self.merged(requests + transitive)
        var provided = initiallyProvided
        var providedModules: [String: [String]] = [:]
        var usePins = !pins.isEmpty
        // Rockspecs read before anything is built: one luarocks run collects them, the next builds.
        let gate = RockspecGate(
            folder: FileManager.default.temporaryDirectory.path
                + "/flowpkg-resolve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-rockspecs")
        defer { try? FileManager.default.removeItem(atPath: gate.folder) }
        var luarocks = self.luarocks
        luarocks.gate = gate
        for _ in 0..<24 {
            let scratch =
                FileManager.default.temporaryDirectory.path
                + "/flowpkg-resolve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let tree = scratch + "/tree"
            let lines = Self.dependencyLines(wanted, pins: usePins ? pins : [:], provided: provided)
            let rockspec = scratch + "/flowpkg-resolution-0-0.rockspec"
            let text = Self.resolutionRockspec.replacingAll(
                "--[[DEPENDENCIES]]", with: lines.map(LuaRocks.luaString).joined(separator: ", "))
            do {
                try AtomicOutput.write(Array(text.utf8), to: rockspec, creatingFolders: true)
            } catch {
                throw .io(error)
            }
            let output = try luarocks.run(
                ["install", "--only-deps", "--no-doc", rockspec], tree: tree, provided: provided, scratch: scratch)
            // New rockspecs and binary rocks: read (a refusal throws), accepted, and built or
            // installed by the next run; one with C libraries the host's, or refused.
            let judged = try gate.judge()
            for binary in judged.binaryRocks { try takeBinary(binary, &provided, &providedModules) }
            if judged.count > 0 { continue }
            if !output.succeeded {
                if usePins, output.combined.contains("Could not satisfy dependency") {
                    // A pin that no longer fits the constraints: let LuaRocks choose again.
                    usePins = false
                    continue
                }
                let (rock, version, modules) = try diagnoseFailure(output, scratch: scratch)
                if !modules.isEmpty, modules.allSatisfy(isExternal), provided[rock] == nil {
                    provided[rock] = version
                    providedModules[rock] = modules
                    continue
                }
                throw .cCode(rock: rock, version: version, modules: modules)
            }
            let installed = Rockspec.installedRocks(in: tree)
            // A C library under lib/ that reached the tree anyway (the guard reads each binary rock first).
            if let binary = installed.first(where: { !$0.libFiles.isEmpty }) {
                try takeBinary(binary, &provided, &providedModules)
                continue
            }
            let rocks = try pinAll(installed, tree: tree, output: output, scratch: scratch, requests: requests)
            let host = provided.map { name, version in
                ProvidedRock(name: name, version: version, modules: providedModules[name] ?? [])
            }
            return Resolution(rocks: rocks, providedByHost: host)
        }
        throw .commandFailed(
            command: "luarocks install", output: "resolution did not settle after 24 runs of luarocks")
    }

    /// `Resources/resolution.rockspec`: the rockspec whose dependencies are what is resolved.
    static let resolutionRockspec = String(decoding: PackageResources.resolution_rockspec, as: UTF8.self)

    /// A binary rock that holds a C library under lib/: the host's when it provides every C
    /// module (and the rock was not taken as the host's already), else refused.
    func takeBinary(
        _ binary: InstalledRock, _ provided: inout [String: String], _ providedModules: inout [String: [String]]
    ) throws(DependencyError) {
        let modules = binary.cModules
        guard modules.allSatisfy(isExternal), provided[binary.name] == nil else {
            throw .cCode(rock: binary.name, version: binary.version, modules: modules)
        }
        provided[binary.name] = binary.version
        providedModules[binary.name] = modules
    }

    /// The resolution rockspec's `dependencies`: each request, with its pin where there is one,
    /// and the pins of rocks not asked for (a dependency's dependency) unless the host provides them.
    static func dependencyLines(
        _ wanted: [(name: String, constraint: String)], pins: [String: String], provided: [String: String]
    ) -> [String] {
        var lines = wanted.map { request in
            request.constraint.isEmpty ? request.name : request.name + " " + request.constraint
        }
        for (index, request) in wanted.enumerated() {
            if let version = pins[request.name] {
                lines[index] += (request.constraint.isEmpty ? " " : ", ") + "== \(version)"
            }
        }
        for (name, version) in pins.sorted(by: { $0.key < $1.key })
        where !wanted.contains(where: { $0.name == name }) && provided[name] == nil {
            lines.append("\(name) == \(version)")
        }
        return lines
    }

    /// One request per rock, in first-asked order, its constraints joined (`inspect >= 3, < 4`):
    /// LuaRocks then finds one version for all who ask, or says none fits.
    static func merged(_ requests: [(name: String, constraint: String)]) -> [(name: String, constraint: String)] {
        var merged: [(name: String, constraint: String)] = []
        for request in requests {
            guard let index = merged.firstIndex(where: { $0.name == request.name }) else {
                merged.append(request)
                continue
            }
            let parts = [merged[index].constraint, request.constraint].filter { !$0.isEmpty }
            var seen: [String] = []
            for part in parts where !seen.contains(part) { seen.append(part) }
            merged[index].constraint = seen.joined(separator: ", ")
        }
        return merged
    }

    /// Pins every installed rock, once none is refused: a rock that installs anything but Lua
    /// modules is never pinned.
    private func pinAll(
        _ installed: [InstalledRock], tree: String, output: ChildOutput, scratch: String,
        requests: [(name: String, constraint: String)]
    ) throws(DependencyError) -> [LockedDependency] {
        if let refused = installed.first(where: { $0.refusal != nil }), let reason = refused.refusal {
            throw .buildRefused(rock: refused.name, version: refused.version, reason: reason)
        }
        let origins = Self.installedOrigins(in: output.combined)
        var rocks: [LockedDependency] = []
        for rock in installed {
            rocks.append(
                try pin(
                    rock, tree: tree, origin: origins[rock.name + "-" + rock.version], scratch: scratch,
                    requested: requests.first { $0.name == rock.name }?.constraint))
        }
        return rocks
    }

    /// Pins one installed rock: every Lua file into the cache, the rock file hashed.
    private func pin(_ rock: InstalledRock, tree: String, origin: String?, scratch: String, requested: String?)
        throws(DependencyError) -> LockedDependency
    {
        var modules: [LockedModule] = []
        for file in rock.luaFiles where file.hasSuffix(".lua") {
            let path = tree + "/share/lua/5.4/" + file
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .io(path: path, reason: "luarocks installed it but it cannot be read")
            }
            let bytes = [UInt8](data)
            let sha = try cache.store(bytes)
            modules.append(
                LockedModule(name: Rockspec.moduleName(ofFile: file), path: file, size: Int64(bytes.count), sha256: sha)
            )
        }
        // The rock file itself: read where the server has it when that is a folder, else fetched again.
        let rockFile: String
        if let local = origin, local.hasPrefix("/"), FileManager.default.fileExists(atPath: local) {
            rockFile = local
        } else {
            rockFile = try luarocks.download(
                rock.name, version: rock.version, into: scratch + "/fetched", scratch: scratch)
        }
        // The lock pins the rock's own bytes: one that cannot be read is not pinned as empty.
        guard let rockData = FileManager.default.contents(atPath: rockFile) else {
            throw .io(path: rockFile, reason: "the rock file of \(rock.name) \(rock.version) cannot be read")
        }
        let rockSHA = try cache.store([UInt8](rockData))
        return LockedDependency(
            kind: "rock", name: rock.name, version: rock.version,
            origin: Self.lockedOrigin(origin, rockFile: rockFile), sha256: rockSHA, requested: requested,
            dependencies: rock.dependencies, modules: modules)
    }

    /// What the lock records as a rock's origin: its URL, or for a server that is a folder only
    /// the rock file's name (a lock is committed: it never holds this machine's paths).
    static func lockedOrigin(_ origin: String?, rockFile: String) -> String {
        guard let origin, !origin.hasPrefix("/") else { return PathText.lastComponent(of: origin ?? rockFile) }
        return origin
    }

    /// `name-version` → the rock file or URL luarocks said it was installing.
    static func installedOrigins(in output: String) -> [String: String] {
        var origins: [String: String] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("Installing ") {
            let location = String(line.dropFirst("Installing ".count)).trimmingWhitespaceAround()
            let file = PathText.lastComponent(of: location)
            // inspect-3.1.1-1.all.rock → inspect-3.1.1-1
            guard file.hasSuffix(".rock"), let dot = file.lastIndex(of: ".") else { continue }
            var stem = String(file[..<dot])
            if let archDot = stem.lastIndex(of: ".") { stem = String(stem[..<archDot]) }
            origins[stem] = location
        }
        return origins
    }

    /// Why `luarocks install` failed, as an error; a rock with C code comes back as its name,
    /// version and C modules, so the caller can treat it as the host's when they are external.
    private func diagnoseFailure(_ output: ChildOutput, scratch: String) throws(DependencyError) -> (
        String, String, [String]
    ) {
        let text = output.combined
        if let refusal = Self.buildTypeRefusal(in: text) { throw refusal }
        if text.contains(LuaRocks.compilerRefusal) || text.contains("Build error") {
            let installing = Self.installedOrigins(in: text)
            let last = text.split(separator: "\n").last { $0.hasPrefix("Installing ") }
            let stem =
                last.map { line in
                    installing.first {
                        $0.value == String(line.dropFirst("Installing ".count)).trimmingWhitespaceAround()
                    }?
                    .key ?? ""
                } ?? ""
            guard let dash = stem.lastIndex(of: "-"), let nameEnd = stem[..<dash].lastIndex(of: "-") else {
                throw .commandFailed(command: output.commandLine, output: text)
            }
            let name = String(stem[..<nameEnd])
            let version = String(stem[stem.index(after: nameEnd)...])
            let source = try luarocks.rockspec(name, version: version, scratch: scratch)
            let (modules, _) = Rockspec.cModules(ofRockspec: source)
            return (name, version, modules)
        }
        for line in text.split(separator: "\n") where line.hasPrefix("Warning: Failed searching manifest") {
            let server = luarocks.servers.first { line.contains($0) } ?? luarocks.servers.joined(separator: ", ")
            throw .serverUnreachable(
                server: server, detail: String(line.dropFirst("Warning: Failed searching manifest: ".count)))
        }
        if let line = text.split(separator: "\n").first(where: { $0.contains("Could not satisfy dependency ") }) {
            // Error: Could not satisfy dependency inspect >= 9: No results matching query ...
            let marker = "Could not satisfy dependency "
            var wanted = line.split(separator: "\n")[0]
            while !wanted.hasPrefix(marker) { wanted = wanted.dropFirst() }
            wanted = wanted.dropFirst(marker.count)
            if let colon = wanted.firstIndex(of: ":") { wanted = wanted[..<colon] }
            let parts = wanted.split(separator: " ", maxSplits: 1)
            let name = parts.first.map(String.init) ?? ""
            let constraint = parts.count > 1 ? String(parts[1]) : ""
            let versions = try luarocks.versions(of: name, scratch: scratch)
            if versions.isEmpty { throw .unknownRock(name: name, servers: luarocks.servers) }
            throw .unsatisfiable(name: name, constraint: constraint, available: versions)
        }
        throw .commandFailed(command: output.commandLine, output: text)
    }
}

extension RockResolver {
    /// LuaRocks' refusal of a build type flowpkg's configuration does not accept, as the rock
    /// it refused: `Error: Failed installing dependency: …/evil-1.0-1.src.rock - This rockspec
    /// uses the 'command' build type, which is blocked by the 'accepted_build_types' setting …`.
    static func buildTypeRefusal(in text: String) -> DependencyError? {
        guard let found = text.split(separator: "\n").last(where: { $0.contains("accepted_build_types") }) else {
            return nil
        }
        let line = String(found)
        let type =
            line.components(separatedBy: "uses the '").dropFirst().first?.components(separatedBy: "'").first ?? "?"
        // The rock: the file named before " - This rockspec", else the last one being installed.
        let installing = text.split(separator: "\n").last { $0.hasPrefix("Installing ") }
        let named = line.components(separatedBy: "dependency: ").dropFirst().first?.components(separatedBy: " - ").first
        let location = named ?? installing.map { String($0.dropFirst("Installing ".count)) } ?? ""
        let (name, version) = rockNameAndVersion(
            ofFile: PathText.lastComponent(of: location.trimmingWhitespaceAround()))
        return .buildRefused(
            rock: name, version: version,
            reason: "its rockspec builds with the '\(type)' build type, which runs commands")
    }

    /// `evil-1.0-1.src.rock`, `evil-1.0-1.rockspec` → (`evil`, `1.0-1`).
    static func rockNameAndVersion(ofFile file: String) -> (String, String) {
        var stem = file
        for suffix in [".rockspec", ".rock"] where stem.hasSuffix(suffix) { stem = String(stem.dropLast(suffix.count)) }
        if let dot = stem.lastIndex(of: "."), !stem[dot...].contains("-") { stem = String(stem[..<dot]) }
        guard let dash = stem.lastIndex(of: "-"), let nameEnd = stem[..<dash].lastIndex(of: "-") else {
            return (stem, "")
        }
        return (String(stem[..<nameEnd]), String(stem[stem.index(after: nameEnd)...]))
    }
}

extension String {
    func trimmingWhitespaceAround() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
