import FlowPackage
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg.lock`: every dependency pinned to a version and every file it provides to a SHA-256,
/// as sorted, stable JSON (the same lock gives the same bytes, so it diffs well in review).
public struct Lockfile: Codable, Sendable, Equatable {
    public static let fileName = "flowpkg.lock"
    public static let currentVersion = 1

    public var lockVersion = Lockfile.currentVersion
    /// Sorted by name.
    public var dependencies: [LockedDependency] = []
    /// Rocks a dependency needs whose C modules the host provides (`externalModules`): handed
    /// to LuaRocks as `rocks_provided`, never packaged. Sorted by name.
    public var providedByHost: [ProvidedRock] = []

    public init(dependencies: [LockedDependency] = [], providedByHost: [ProvidedRock] = []) {
        self.dependencies = dependencies.sorted { $0.name < $1.name }
        self.providedByHost = providedByHost.sorted { $0.name < $1.name }
    }

    public func dependency(named name: String) -> LockedDependency? { dependencies.first { $0.name == name } }

    /// The lock as written: sorted keys, two-space indentation, a final line feed.
    public func jsonBytes() throws -> [UInt8] {
        var copy = self
        copy.dependencies.sort { $0.name < $1.name }
        copy.providedByHost.sort { $0.name < $1.name }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(copy)) + [0x0A]
    }

    /// Reads the lock at `path`; nil when there is none.
    public static func read(at path: String) throws(DependencyError) -> Lockfile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, reason: "it cannot be read")
        }
        do {
            let lock = try JSONDecoder().decode(Lockfile.self, from: data)
            guard lock.lockVersion == currentVersion else {
                throw DependencyError.lockOutOfDate(
                    reason: "\(path) is lock version \(lock.lockVersion); this flowpkg reads version \(currentVersion)")
            }
            if let problem = lock.problem {
                throw DependencyError.lockOutOfDate(reason: "\(path) cannot be used: \(problem)")
            }
            return lock
        } catch let error as DependencyError {
            throw error
        } catch {
            throw .lockOutOfDate(reason: "\(path) is not a lock flowpkg can read: \(error)")
        }
    }

    /// Why a lock read from disk (a pull request may change it) cannot be used: a name that is
    /// not a dependency name (`..` would make `vendor/../`), a path that leaves its folder, or a
    /// hash that is not 64 hex digits (a hash is a file name in the cache).
    var problem: String? {
        for dependency in dependencies {
            if let problem = DependencyDeclaration.nameProblem(dependency.name) {
                return "the dependency name '\(dependency.name)' is not valid: \(problem)"
            }
            if !ManifestRules.isSHA256(dependency.sha256) {
                return "the sha256 of '\(dependency.name)' is not 64 hex digits"
            }
            for module in dependency.modules {
                if let problem = LockedModule.pathProblem(module.path) {
                    return
                        "the file '\(module.path)' of '\(dependency.name)' is not a relative path below its folder: \(problem)"
                }
                if !ManifestRules.isSHA256(module.sha256) {
                    return "the sha256 of '\(module.path)' of '\(dependency.name)' is not 64 hex digits"
                }
            }
        }
        for rock in providedByHost {
            if let problem = DependencyDeclaration.nameProblem(rock.name) {
                return "the host-provided rock name '\(rock.name)' is not valid: \(problem)"
            }
        }
        return nil
    }

    /// Writes the lock atomically (a temporary file renamed into place).
    public func write(to path: String) throws(DependencyError) {
        let bytes: [UInt8]
        do {
            bytes = try jsonBytes()
        } catch {
            throw .io(path: path, reason: "\(error)")
        }
        do {
            try AtomicOutput.write(bytes, to: path, creatingFolders: true)
        } catch {
            throw .io(error)
        }
    }

    /// Why this lock does not pin what `declarations` ask for (nil when it does): a dependency
    /// added, removed or changed in flowpkg.json since the lock was written, or a host-provided
    /// rock whose C module is no longer in `externalModules`.
    public func staleness(for declarations: [DependencyDeclaration], isExternal: (String) -> Bool) -> String? {
        let topLevel = dependencies.filter { $0.requested != nil }
        for declaration in declarations {
            guard let locked = topLevel.first(where: { $0.name == declaration.name }) else {
                // A rock flowpkg.json asks for that the host provides: pinned as the host's.
                if let host = providedByHost.first(where: { $0.name == declaration.name && $0.requested != nil }) {
                    if declaration.kind == "rock", host.requested == declaration.requested { continue }
                    return "flowpkg.lock pins '\(declaration.name)' as the host's rock '\(host.requested ?? "")', "
                        + "but flowpkg.json asks for \(declaration.kind) '\(declaration.requested)'"
                }
                return "flowpkg.lock does not pin the dependency '\(declaration.name)'"
            }
            if locked.kind != declaration.kind || locked.requested != declaration.requested {
                return "flowpkg.lock pins '\(declaration.name)' as \(locked.kind) '\(locked.requested ?? "")', "
                    + "but flowpkg.json asks for \(declaration.kind) '\(declaration.requested)'"
            }
            if (locked.development ?? false) != declaration.isDevelopment {
                return "flowpkg.lock pins '\(declaration.name)' as a"
                    + (declaration.isDevelopment
                        ? " dependency, but flowpkg.json lists it in devDependencies"
                        : " dev dependency, but flowpkg.json lists it in dependencies")
            }
        }
        let asked = topLevel.map(\.name) + providedByHost.filter { $0.requested != nil }.map(\.name)
        for name in asked where !declarations.contains(where: { $0.name == name }) {
            return "flowpkg.lock pins '\(name)', which flowpkg.json no longer lists"
        }
        for rock in providedByHost where !rock.modules.allSatisfy(isExternal) {
            return
                "flowpkg.lock treats the rock '\(rock.name)' as the host's, but its C modules are not all in externalModules"
        }
        return nil
    }
}

/// One dependency as the lock pins it.
public struct LockedDependency: Codable, Sendable, Equatable {
    /// `rock`, `path` or `package`.
    public var kind: String
    public var name: String
    public var version: String
    /// Where it came from: the rock's URL or file, the project folder, the package file.
    public var origin: String
    /// The SHA-256 of the fetched rock or package file (for a path dependency, of its module list).
    public var sha256: String
    /// What flowpkg.json asks for (constraint, path or file); nil for a dependency of a dependency.
    public var requested: String?
    /// Its own dependencies, as its rockspec writes them (`luafilesystem >= 1.6.0`).
    public var dependencies: [String]
    /// Sorted by name.
    public var modules: [LockedModule]
    /// True when only `devDependencies` reach it: `flowpkg test` loads it, export and run never do.
    public var development: Bool? = nil

    public init(
        kind: String, name: String, version: String, origin: String, sha256: String, requested: String?,
        dependencies: [String], modules: [LockedModule]
    ) {
        self.kind = kind
        self.name = name
        self.version = version
        self.origin = origin
        self.sha256 = sha256
        self.requested = requested
        self.dependencies = dependencies
        self.modules = modules.sorted { $0.name < $1.name }
    }
}

/// One file a dependency provides: module name, its path (the chunk name, and its path in
/// `vendor/NAME/`), size and SHA-256.
public struct LockedModule: Codable, Sendable, Equatable {
    public var name: String
    public var path: String
    public var size: Int64
    public var sha256: String

    public init(name: String, path: String, size: Int64, sha256: String) {
        self.name = name
        self.path = path
        self.size = size
        self.sha256 = sha256
    }

    /// Why `path` cannot name a file below a folder (nil when it can): a lock is read from
    /// disk, and its paths become file names under vendor/ and the cache.
    public static func pathProblem(_ path: String) -> String? {
        if path.isEmpty || path.hasPrefix("/") { return "it is not a relative path" }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
            $0.isEmpty || $0 == "." || $0 == ".."
        }) {
            return "it has an empty, '.' or '..' part"
        }
        return nil
    }
}

/// A rock the host provides (its C modules are in `externalModules`).
public struct ProvidedRock: Codable, Sendable, Equatable {
    public var name: String
    public var version: String
    public var modules: [String]
    /// The constraint flowpkg.json asks for when it lists the rock itself; nil when only other
    /// rocks need it.
    public var requested: String? = nil

    public init(name: String, version: String, modules: [String], requested: String? = nil) {
        self.name = name
        self.version = version
        self.modules = modules.sorted()
        self.requested = requested
    }
}
