import FlowDiagnostics
import FlowJSON
import FlowPackage
import FlowSupport

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

        public init(lock: Lockfile?, diagnostics: [Diagnostic] = [], changes: [String] = []) {
            self.lock = lock
            self.diagnostics = diagnostics
            self.changes = changes
        }
    }

    /// Resolves and writes flowpkg.lock for the project at `root`.
    public static func lock(
        projectAt root: URL, options: DependencyOptions, upgrade: Upgrade = .none,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Outcome {
        let rootPath = root.standardizedFileURL.path
        let read = options.projects.read(folder: rootPath)
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

    /// Adds a dependency to flowpkg.json (in place; to `devDependencies` when `development`)
    /// and locks it.
    public static func add(
        _ addition: Addition, development: Bool = false, projectAt root: URL, options: DependencyOptions,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Outcome {
        let rootPath = root.standardizedFileURL.path
        let read = options.projects.read(folder: rootPath)
        guard read.file != nil, let bytes = read.bytes else { return Outcome(lock: nil, diagnostics: read.diagnostics) }
        let projectFilePath = rootPath + "/" + DependentProject.fileName
        let name: String
        var value: String, constraintToPin: String?
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
            value = JSONText.quoted(constraint ?? "")
            constraintToPin = constraint == nil ? "" : nil
        case .path(let path):
            let folder = PathText.resolve(path, against: workingDirectory)
            let relative = PathText.relative(folder, from: rootPath)
            let decoded = options.projects.read(folder: folder)
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
            value = "{\"path\": \(JSONText.quoted(relative))}"
        case .package(let path):
            let file = PathText.resolve(path, against: workingDirectory)
            let relative = PathText.relative(file, from: rootPath)
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
            value = "{\"package\": \(JSONText.quoted(relative))}"
        }
        var editor = ProjectFileEditor(bytes: bytes)
        let key = development ? DependentProject.devDependenciesKey : "dependencies"
        let servers: [String]? = if case .rock = addition { options.rocksServers } else { nil }
        do {
            try editor.setDependency(name, value: value, key: key)
            try recordServers(servers, in: &editor, file: read.file, root: rootPath)
        } catch {
            return failure(.invalidProjectJSON, "\(error)", file: projectFilePath)
        }
        let edited = options.projects.decode(editor.bytes, path: projectFilePath)
        guard let file = edited.file else {
            return Outcome(lock: nil, diagnostics: edited.diagnostics)
        }
        // `add NAME` alone: LuaRocks picks the newest, and flowpkg.json gets `>= MAJOR.MINOR, < MAJOR+1`.
        var outcome = resolveAndWrite(
            root: rootPath, file: file, projectBytes: editor.bytes, options: options, upgrade: .only([name]),
            workingDirectory: workingDirectory,
            beforeWriting: { lock in
                constraintToPin == nil ? nil : pinToReleaseLine(name, key: key, editor: editor, lock: &lock)
            })
        if outcome.succeeded, let lock = outcome.lock {
            outcome.changes.insert(addedLine(name, before: read.file, after: file, lock: lock), at: 0)
        }
        return outcome
    }

    /// Removes a dependency from flowpkg.json (in place) and from the lock.
    public static func remove(
        _ name: String, projectAt root: URL, options: DependencyOptions,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> Outcome {
        let rootPath = root.standardizedFileURL.path
        let read = options.projects.read(folder: rootPath)
        guard read.file != nil, let bytes = read.bytes else { return Outcome(lock: nil, diagnostics: read.diagnostics) }
        let projectFilePath = rootPath + "/" + DependentProject.fileName
        var editor = ProjectFileEditor(bytes: bytes)
        do {
            let isDevelopment = read.file?.dependencies.contains { $0.name == name && $0.isDevelopment } ?? false
            try editor.removeDependency(name, key: isDevelopment ? DependentProject.devDependenciesKey : "dependencies")
        } catch {
            return failure(
                .invalidDependency, error.description, file: projectFilePath,
                hint: "the dependencies are: " + (read.file?.dependencies.map(\.name).joined(separator: ", ") ?? ""))
        }
        let edited = options.projects.decode(editor.bytes, path: projectFilePath)
        guard let file = edited.file else { return Outcome(lock: nil, diagnostics: edited.diagnostics) }
        var outcome = resolveAndWrite(
            root: rootPath, file: file, projectBytes: editor.bytes, options: options, upgrade: .none,
            workingDirectory: workingDirectory)
        if outcome.succeeded { outcome.changes.insert("removed \(name) from \(DependentProject.fileName)", at: 0) }
        return outcome
    }
}
