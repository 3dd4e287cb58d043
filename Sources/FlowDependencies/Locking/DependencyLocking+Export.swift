import FlowDiagnostics
import FlowPackage
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Export's side of dependencies: checking (or resolving) the lock before a package is written,
/// and `flowpkg vendor`.
extension DependencyLocking {
    /// Export's first step. With `locked`, a missing or stale lock is an error; otherwise it is
    /// resolved again. Locked files the cache and vendor/ lack are fetched again (never with
    /// `offline`) and must hash as the lock says.
    public static func prepare(projectAt root: URL, options: DependencyOptions, workingDirectory: String)
        -> [Diagnostic]
    {
        let rootPath = root.standardizedFileURL.path
        let read = options.projects.read(folder: rootPath)
        guard let file = read.file, !file.dependencies.isEmpty else { return [] }
        let lockPath = rootPath + "/" + Lockfile.fileName
        let existing: Lockfile?
        do {
            existing = try Lockfile.read(at: lockPath)
        } catch {
            return [DependencyLocking.located(error.diagnostic, file: lockPath)]
        }
        let stale =
            existing.map { DependencyGraph.staleness(of: $0, for: file, root: rootPath, projects: options.projects) }
            ?? "flowpkg.json lists dependencies, but there is no flowpkg.lock"
        if options.locked || options.offline {
            if let stale {
                let reason =
                    stale + (options.locked ? " (--locked forbids changing it)" : " (--offline cannot resolve)")
                return [
                    DependencyLocking.located(DependencyError.lockOutOfDate(reason: reason).diagnostic, file: lockPath)
                ]
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
                workingDirectory: workingDirectory, forceFetch: true,
                transitive: DependencyGraph.recordedRocks(in: existing))
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
            return [DependencyLocking.located(error.diagnostic, file: lockPath)]
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
                        DependencyLocking.located(
                            DependencyError.lockOutOfDate(reason: "there is no flowpkg.lock to vendor").diagnostic,
                            file: lockPath)
                    ])
            }
            var outcome = Outcome(lock: lock)
            for dependency in lock.dependencies where dependency.kind != "path" {
                for module in dependency.modules {
                    try module.checkPlace(in: dependency)
                    let target = try VendorFolder.prepare(
                        root: rootPath, dependency: dependency.name, path: module.path)
                    guard let bytes = try options.cache.checkedContents(of: module.sha256) else {
                        throw DependencyError.unavailableOffline(dependency: dependency.name, file: module.path)
                    }
                    do {
                        // vendor/ is flowpkg's to fill: a link there could lead outside the project.
                        try AtomicOutput.write(bytes, to: target, links: .refuse, creatingFolders: true)
                    } catch {
                        throw DependencyError.io(error)
                    }
                }
                let count = dependency.modules.count
                outcome.changes.append("vendor/\(dependency.name)/ (\(count) \(count == 1 ? "file" : "files"))")
            }
            return outcome
        } catch let error as DependencyError {
            return Outcome(lock: nil, diagnostics: [DependencyLocking.located(error.diagnostic, file: lockPath)])
        } catch {
            return Outcome(lock: nil, diagnostics: [])
        }
    }
}
