import FlowDiagnostics

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

/// `flowpkg outdated`: the locked rocks the rocks servers have newer versions of.
extension DependencyLocking {
    public struct OutdatedRock: Encodable, Sendable, Equatable {
        public var name: String
        public var locked: String
        public var newest: String
        /// flowpkg.json's constraint, nil for a rock only other dependencies need.
        public var requested: String?
    }

    /// Asks the servers (LuaRocks' `search`) for every rock the lock pins; nothing is changed.
    public static func outdated(
        projectAt root: URL, options: DependencyOptions,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> (rocks: [OutdatedRock], diagnostics: [Diagnostic]) {
        let rootPath = root.standardizedFileURL.path
        let read = options.projects.read(folder: rootPath)
        guard let file = read.file else { return ([], read.diagnostics) }
        let lockPath = rootPath + "/" + Lockfile.fileName
        let scratch =
            FileManager.default.temporaryDirectory.path
            + "/flowpkg-outdated-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        do throws(DependencyError) {
            guard let lock = try Lockfile.read(at: lockPath) else {
                throw DependencyError.lockOutOfDate(reason: "there is no flowpkg.lock to compare")
            }
            let rocks = lock.dependencies.filter { $0.kind == "rock" }
            guard !rocks.isEmpty else { return ([], []) }
            let servers = options.servers(for: file, root: rootPath, workingDirectory: workingDirectory)
            for server in servers where !server.contains("://") {
                guard FileManager.default.fileExists(atPath: server + "/manifest") else {
                    throw DependencyError.serverUnreachable(
                        server: server, detail: "the folder has no manifest (or does not exist)")
                }
            }
            let luarocks = try LuaRocks.locate(servers: servers)
            var outdated: [OutdatedRock] = []
            for rock in rocks {
                let versions = try luarocks.versions(of: rock.name, scratch: scratch)
                guard let newest = versions.first, newest != rock.version,
                    (versions.firstIndex(of: rock.version) ?? versions.count) > 0
                else { continue }
                outdated.append(
                    OutdatedRock(name: rock.name, locked: rock.version, newest: newest, requested: rock.requested))
            }
            return (outdated, [])
        } catch {
            return ([], [located(error.diagnostic, file: lockPath)])
        }
    }
}
