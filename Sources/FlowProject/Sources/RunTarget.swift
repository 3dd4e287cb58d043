import FlowDiagnostics
import FlowLoader
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `flowpkg run` runs: a package or a project folder, opened and checked, with a loader
/// over it and the module to start with. Nothing here runs Lua.
public struct RunTarget {
    public var identifier: PackageIdentifier
    public var startModule: ModuleName
    public var loader: Loader
    /// Warnings from reading a project folder (a folder with errors is refused).
    public var warnings: [Diagnostic]
    /// The C modules the project declares (`externalModules`), from flowpkg.json or the manifest.
    public var externalModules: [String] = []

    /// The kind of the source everything comes from when nothing live is connected.
    public var primarySource: SourceKind { loader.sources.last?.kind ?? .embeddedPackage }

    /// Opens `path`: a `.luapkg` file; a project folder (holding flowpkg.json); or, with an
    /// identifier, a folder of packages to pick from by identifier. With `identifier`, a package
    /// or project of another identifier is refused. With `verifyAll`, every entry of a package
    /// is checked against its SHA-256 now (otherwise each when first read). With
    /// `workingDirectory`, errors name a folder's module files relative to it, and a package's
    /// modules by the package's path relative to it and the entry.
    public static func open(
        _ path: URL, identifier: PackageIdentifier?, verifyAll: Bool = false,
        workingDirectory: String? = nil
    ) throws(RunTargetError) -> RunTarget {
        let options = OpenOptions(verifyAll: verifyAll, workingDirectory: workingDirectory)
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else {
            throw .notFound(path: path.path)
        }
        if !isDirectory { return try openPackage(path, identifier: identifier, options: options) }
        let projectFile = path.appendingPathComponent("flowpkg.json")
        if !FileManager.default.fileExists(atPath: projectFile.path), let identifier {
            do {
                return try openPackage(
                    try PackageLocator.locate(identifier, in: [path]), identifier: identifier, options: options)
            } catch let error as LoaderError {
                throw .refused(error)
            } catch let error as RunTargetError {
                throw error
            } catch {
                throw .refused(.noUsableSource(reason: "\(error)"))
            }
        }
        if !FileManager.default.fileExists(atPath: projectFile.path), !PackageLocator.candidates(in: [path]).isEmpty {
            throw .packagesNeedIdentifier(folder: path.path)
        }
        return try openProject(path, identifier: identifier, options: options)
    }

    /// The absolute `path` without `.` parts, each `..` taking away the part before it, and no
    /// empty part: what `URL.standardizedFileURL` gives (no link is followed), without the
    /// generic machinery that cost a run's start-up a quarter of a millisecond.
    public static func lexicallyStandardized(_ path: String) -> String {
        var kept: [UInt8] = []
        var partStarts: [Int] = []
        var part: [UInt8] = []
        func endPart() {
            defer { part.removeAll(keepingCapacity: true) }
            if part.isEmpty || part == [UInt8(ascii: ".")] { return }
            if part == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                if let start = partStarts.popLast() { kept.removeSubrange(start...) }
                return
            }
            partStarts.append(kept.count)
            kept.append(UInt8(ascii: "/"))
            kept += part
        }
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") { endPart() } else { part.append(byte) }
        }
        endPart()
        return kept.isEmpty ? "/" : String(decoding: kept, as: UTF8.self)
    }

    private struct OpenOptions {
        var verifyAll: Bool
        var workingDirectory: String?

        /// `path` relative to the working directory when inside it.
        func display(_ path: String) -> String? {
            guard let workingDirectory else { return nil }
            let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        }
    }

    private static func openPackage(_ file: URL, identifier: PackageIdentifier?, options: OpenOptions)
        throws(RunTargetError) -> RunTarget
    {
        let source: EmbeddedPackageSource
        do {
            source = try EmbeddedPackageSource(
                contentsOf: file, expectedIdentifier: identifier, verifyAll: options.verifyAll,
                displayName: options.display(Self.lexicallyStandardized(file.path)))
        } catch {
            throw .refused(error)
        }
        guard let start = source.startModule else {
            throw .noStartModule(
                location: file.path, hint: "set \"startModule\" in the project's flowpkg.json and export again")
        }
        var target = try make(source, start: start, warnings: [])
        target.externalModules = source.externalModules
        return target
    }

    private static func openProject(_ folder: URL, identifier: PackageIdentifier?, options: OpenOptions)
        throws(RunTargetError) -> RunTarget
    {
        let (project, diagnostics) = ProjectLoader.load(from: folder)
        let errors = diagnostics.filter { $0.severity == .error }
        guard let project, errors.isEmpty else { throw .projectHasErrors(diagnostics) }
        if let identifier, identifier != project.identifier {
            throw .refused(
                .identifierMismatch(location: project.root.path, expected: identifier, found: project.identifier))
        }
        guard let start = project.startModule else {
            throw .noStartModule(
                location: project.root.appendingPathComponent("flowpkg.json").path,
                hint: "set \"startModule\" to the module to run, e.g. \"main\"")
        }
        var target = try make(
            ProjectFolderSource(project: project, workingDirectory: options.workingDirectory), start: start,
            warnings: diagnostics)
        target.externalModules = project.projectFile.externalModules
        return target
    }

    private static func make(_ source: any PackageSource, start: ModuleName, warnings: [Diagnostic])
        throws(RunTargetError) -> RunTarget
    {
        let plan = SourcePolicy.plan(for: SourceSituation(monitor: .absent, primary: .ready(source.kind)))
        let sources = plan.order.compactMap { kind in kind == source.kind ? source : nil }
        do {
            let loader = try Loader(identifier: source.identifier, sources: sources)
            return RunTarget(identifier: source.identifier, startModule: start, loader: loader, warnings: warnings)
        } catch {
            throw .refused(error)
        }
    }
}

/// Why `flowpkg run` cannot start, before any Lua runs.
public enum RunTargetError: Error, CustomStringConvertible {
    case notFound(path: String)
    /// The project folder has errors; the diagnostics say where.
    case projectHasErrors([Diagnostic])
    /// A folder of packages, with no identifier to pick one by.
    case packagesNeedIdentifier(folder: String)
    /// Neither the package nor the project names a start module.
    case noStartModule(location: String, hint: String)
    /// The package or folder was refused (missing, corrupt, another identifier, not found).
    case refused(LoaderError)

    public var description: String {
        switch self {
        case .notFound(let path):
            return "\(path): no such file or folder; give a .luapkg file or a project folder"
        case .projectHasErrors(let diagnostics):
            let count = diagnostics.filter { $0.severity == .error }.count
            return "cannot run the project: it has \(count) error\(count == 1 ? "" : "s")"
        case .packagesNeedIdentifier(let folder):
            return
                "\(folder) holds packages but no flowpkg.json; pass --identifier ID to run the package with that identifier"
        case .noStartModule(let location, let hint):
            return "\(location): no start module to run; \(hint)"
        case .refused(let error):
            return error.description
        }
    }
}
