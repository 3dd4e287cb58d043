import FlowSupport
import FlowDiagnostics
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The path and package dependencies of a project with their own followed: a path
/// dependency's flowpkg.json lists its own rocks, paths and packages (its paths relative to its
/// folder), and a package's manifest lists what it was built with. Every one is pinned once;
/// the rocks they ask for go to LuaRocks with the project's own.
public struct DependencyGraph {
    /// Path and package dependencies, each pinned; the project's own have `requested`.
    var pinned: [LockedDependency] = []
    /// Rocks that path dependencies ask for, as (name, constraint).
    var rocks: [(name: String, constraint: String)] = []
    /// Who brought each pinned name in, for messages: `the path dependency 'util' at ../util (from ui-kit)`.
    private var sources: [String: String] = [:]

    /// Walks `file`'s dependencies from the project at `root`; a cycle or one name from two
    /// places is an error that names them.
    /// Folders are compared as the file system has them: links resolved before `..` applies
    /// (a cycle through a link is a cycle, FP815).
    static func walk(
        root given: String, file: DependentProject, cache: FileCache, projects: any ProjectFolderReading
    ) throws(DependencyError) -> DependencyGraph {
        var graph = DependencyGraph()
        let root = PathText.realPath(given) ?? given
        try graph.visit(
            file.dependencies, folder: root, root: root, chain: [file.name.isEmpty ? "the project" : file.name],
            folders: [PathText.resolve(".", against: root)], cache: cache, projects: projects)
        return graph
    }

    /// `path` from `folder`, its links resolved (as given when it does not exist).
    private static func resolved(_ path: String, from folder: String) -> String {
        let lexical = PathText.resolve(path, against: folder)
        return PathText.realPath(lexical) ?? lexical
    }

    private mutating func visit(
        _ declarations: [DependencyDeclaration], folder: String, root: String, chain: [String], folders: [String],
        cache: FileCache, projects: any ProjectFolderReading
    ) throws(DependencyError) {
        let parent = chain.count > 1 ? chain.last : nil
        for declaration in declarations {
            switch declaration.source {
            case .rock(let constraint):
                if parent != nil { rocks.append((declaration.name, constraint)) }
            case .path(let path):
                let target = Self.resolved(path, from: folder)
                if folders.contains(target) {
                    throw .dependencyCycle(chain: chain + [declaration.name])
                }
                let origin = parent == nil ? path : PathText.relative(target, from: root)
                let source = describe("path", declaration.name, origin, parent)
                if let existing = pinned.first(where: { $0.name == declaration.name }) {
                    // The same folder reached twice (two dependencies sharing one) is one dependency.
                    if existing.kind == "path", PathText.resolve(existing.origin, against: root) == target { continue }
                    throw .dependencyNameClash(
                        name: declaration.name, first: sources[declaration.name] ?? "", second: source)
                }
                let (locked, found): (LockedDependency, PathDependencies.Modules)
                do {
                    (locked, found) = try PathDependencies.lock(
                        name: declaration.name, path: origin, root: root, requested: parent == nil ? path : nil,
                        projects: projects)
                } catch {
                    throw error.declared(at: declaration.place(in: folder + "/" + DependentProject.fileName))
                }
                pinned.append(locked)
                sources[declaration.name] = source
                try visit(
                    found.declarations, folder: target, root: root, chain: chain + [declaration.name],
                    folders: folders + [target], cache: cache, projects: projects)
            case .package(let path):
                let target = PathText.resolve(path, against: folder)
                let origin = parent == nil ? path : PathText.relative(target, from: root)
                let entries = try PackageDependencies.lock(
                    name: declaration.name, path: origin, root: root, requested: parent == nil ? path : nil,
                    cache: cache)
                for (index, entry) in entries.enumerated() {
                    let source =
                        index == 0
                        ? describe("package", entry.name, origin, parent)
                        : "'\(entry.name)' \(entry.version), built into the package '\(declaration.name)' (\(origin))"
                    if let existing = pinned.first(where: { $0.name == entry.name }) {
                        // Two packages built with the very same files of one dependency share it.
                        if index > 0, existing.modules == entry.modules, existing.version == entry.version { continue }
                        throw .dependencyNameClash(name: entry.name, first: sources[entry.name] ?? "", second: source)
                    }
                    pinned.append(entry)
                    sources[entry.name] = source
                }
            }
        }
    }

    private func describe(_ kind: String, _ name: String, _ origin: String, _ parent: String?) -> String {
        "the \(kind) dependency '\(name)' (\(origin))" + (parent.map { ", which '\($0)' depends on" } ?? "")
    }

    /// Where `name` came from, in words, when it is pinned here.
    func source(of name: String) -> String? { sources[name] }

    /// A dependency's own dependency as the lock records it: `inspect ~> 3.1`,
    /// `util (path ../util)`, `charts (package charts.luapkg)`.
    static func ownDependency(_ declaration: DependencyDeclaration) -> String {
        switch declaration.source {
        case .rock(let constraint): return constraint.isEmpty ? declaration.name : declaration.name + " " + constraint
        case .path(let path): return "\(declaration.name) (path \(path))"
        case .package(let file): return "\(declaration.name) (package \(file))"
        }
    }

    /// `inspect ~> 3.1` for each (name, constraint), sorted: the rocks path dependencies ask for,
    /// as the lock records them.
    static func rockLines(_ rocks: [(name: String, constraint: String)]) -> [String] {
        rocks.map { $0.constraint.isEmpty ? $0.name : $0.name + " " + $0.constraint }.sorted()
    }

    /// The rocks the lock's path dependencies asked for when it was written, as (name, constraint).
    static func recordedRocks(in lock: Lockfile) -> [(name: String, constraint: String)] {
        lock.dependencies.filter { $0.kind == "path" }.flatMap(\.dependencies).compactMap { line in
            if line.hasSuffix(")"), line.contains(" (path ") || line.contains(" (package ") { return nil }
            let parts = line.split(separator: " ", maxSplits: 1)
            return (parts.first.map(String.init) ?? "", parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// What `lock` does not pin any more (nil when it pins everything): flowpkg.json's
    /// dependencies, then those of its path dependencies.
    public static func staleness(
        of lock: Lockfile, for file: DependentProject, root: String, projects: any ProjectFolderReading
    ) -> String? {
        lock.staleness(for: file.dependencies, isExternal: file.isExternalModule)
            ?? staleness(ofPathDependenciesIn: lock, root: root, projects: projects)
    }

    /// Why the lock no longer pins what its path dependencies ask for (nil when it does): a
    /// path dependency whose flowpkg.json lists other dependencies than the lock recorded.
    static func staleness(ofPathDependenciesIn lock: Lockfile, root: String, projects: any ProjectFolderReading)
        -> String?
    {
        for dependency in lock.dependencies where dependency.kind == "path" {
            let folder = PathText.resolve(dependency.origin, against: root)
            let read = projects.read(folder: folder)
            // A folder that is gone or broken is reported where its modules are read.
            guard let file = read.file else { continue }
            let current = file.dependencies.filter { !$0.isDevelopment }.map(ownDependency).sorted()
            if current != dependency.dependencies.sorted() {
                return
                    "the dependencies of the path dependency '\(dependency.name)' (\(folder)/\(DependentProject.fileName)) "
                    + "changed since flowpkg.lock was written"
            }
        }
        return nil
    }
}
