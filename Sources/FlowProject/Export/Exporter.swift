import FlowDependencies
import FlowDiagnostics
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

/// Packages a project: validates it, and only when validation finds no error, writes the
/// `.luapkg` through FlowPackage's writer (atomically, reproducibly).
///
/// The project model validation computed is the one exported: export never looks for files
/// on its own. Failures are diagnostics, never thrown: FP501 the output cannot be written,
/// FP502 an input cannot be read or changed during the export, FP503 the project passes a
/// package limit, FP504 `SOURCE_DATE_EPOCH` is not a number, FP505 the export was cancelled,
/// FP506 the output would replace something of the user's (see `OutputRule`).
public enum Exporter {
    public static func export(projectAt directory: URL, options: ExportOptions = ExportOptions()) -> ExportResult {
        let root =
            directory.path.hasPrefix("/") ? directory : options.workingDirectory.appendingPathComponent(directory.path)
        // Dependencies first: resolved into flowpkg.lock unless --locked or --offline forbid it.
        let prepared = DependencyLocking.prepare(
            projectAt: root, options: options.dependencies, workingDirectory: options.workingDirectory.path)
        if prepared.contains(where: { $0.severity == .error }) {
            return ExportResult(
                diagnostics: prepared, moduleCount: 0, resourceCount: 0, package: nil, wasCancelled: false)
        }
        var validationOptions = ValidationOptions(
            strict: options.strict, identifier: options.identifier, version: options.version)
        validationOptions.allowsOutsideLinks = options.allowsOutsideLinks
        validationOptions.dependencies = options.dependencies
        // One session, kept: the module bytes it checked are the bytes written, read once.
        validationOptions.keepsCheckedBytes = true
        let session = ValidationSession(root: root, options: validationOptions)
        let validation = session.report()
        var result = ExportResult(
            diagnostics: validation.diagnostics, moduleCount: validation.moduleCount,
            resourceCount: validation.resourceCount, package: nil, wasCancelled: false)
        guard !validation.hasErrors, let project = validation.project else { return result }

        let timestamp: Int64
        do {
            timestamp = try PackageWriteOptions.timestamp(environment: options.environment)
        } catch {
            result.diagnostics.append(
                Diagnostic(
                    severity: .error, code: .invalidSourceDateEpoch, message: error.description,
                    hint: "set it to a whole number, e.g. SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)"))
            return result
        }
        let output = outputURL(for: project, options: options)
        if let refusal = OutputRule.problem(writing: output, for: project, force: options.force)
            ?? createFolder(of: output)
        {
            result.diagnostics.append(refusal)
            return result
        }
        var input = packageInput(for: project, checkedBytes: session.checkedBytes(ofFileAt:))
        input.runtimeVersion = options.runtimeVersion ?? project.projectFile.runtimeVersion
        var writeOptions = PackageWriteOptions(
            timestamp: timestamp, progress: options.progress,
            cancellation: options.cancellation)
        writeOptions.signingKey = options.signingKey
        do {
            // The package's size and SHA-256 come from its bytes as they were written.
            let written = try PackageWriter.writePackage(input, to: output, options: writeOptions)
            result.package = ExportResult.Package(
                url: output, manifest: written.manifest, bytes: written.bytes, sha256: written.sha256)
        } catch let error as PackageError {
            if case .cancelled = error { result.wasCancelled = true }
            result.diagnostics.append(diagnostic(for: error))
        } catch {
            result.diagnostics.append(
                Diagnostic(severity: .error, code: .outputUnwritable, message: "\(error)", file: output.path))
        }
        return result
    }

    /// `-o dist/app.luapkg` when dist/ does not exist yet: the folder is made, as cargo makes
    /// target/; nil when it is there or was made.
    static func createFolder(of output: URL) -> Diagnostic? {
        let folder = output.deletingLastPathComponent().path
        var isFolder = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return nil
        } catch {
            return Diagnostic(
                severity: .error, code: .outputUnwritable,
                message: "cannot make the folder \(folder) for the package: \(error)",
                file: output.path, hint: "give -o a path in a folder that can be made, or make it first")
        }
    }

    /// `-o` resolved against the working directory, or `<name>-<version>.luapkg` in it.
    static func outputURL(for project: Project, options: ExportOptions) -> URL {
        let path = options.output ?? "\(project.projectFile.name)-\(project.projectFile.version).luapkg"
        let url =
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : options.workingDirectory.appendingPathComponent(path)
        return url.standardizedFileURL
    }

    /// The writer's input: names from the project model, bytes from its files (or the bytes
    /// validation already read, from `checkedBytes`), no host path.
    static func packageInput(for project: Project, checkedBytes: (String) -> [UInt8]? = { _ in nil }) -> PackageInput {
        var input = PackageInput(
            identifier: project.identifier, name: project.projectFile.name, version: project.projectFile.version,
            startModule: project.startModule,
            modules: project.modules.filter { !project.isSpec($0) }.map {
                .init(name: $0.name, relativePath: $0.relativePath, file: $0.file, contents: checkedBytes($0.file.path))
            },
            resources: project.resources.map { .init(key: $0.key, file: $0.file) },
            externalModules: project.projectFile.externalModules)
        input.scripts = project.scripts.map {
            .init(relativePath: $0.relativePath, file: $0.file, contents: checkedBytes($0.file.path))
        }
        input.dependencies = project.dependencies
        return input
    }

    /// Export's own failure as a diagnostic on the file concerned.
    static func diagnostic(for error: PackageError) -> Diagnostic {
        switch error {
        case let .inputUnreadable(file, entry, reason):
            return Diagnostic(
                severity: .error, code: .inputUnreadable, message: "cannot read this file for \(entry): \(reason)",
                file: file)
        case let .inputChanged(file, entry):
            return Diagnostic(
                severity: .error, code: .inputUnreadable, message: "the file changed while it was exported as \(entry)",
                file: file, hint: "export again once nothing is writing to the project")
        case let .invalidInput(path, entry, reason):
            return Diagnostic(
                severity: .error, code: .packageLimit, message: (entry.map { "\($0): " } ?? "") + reason, file: path)
        case let .outputUnwritable(path, reason):
            return Diagnostic(
                severity: .error, code: .outputUnwritable, message: "cannot write the package: \(reason)", file: path,
                hint: "choose another place with -o, or fix the folder's permissions")
        case let .writeFailed(path, reason):
            return Diagnostic(
                severity: .error, code: .outputUnwritable, message: "writing the package failed: \(reason)", file: path)
        case let .cancelled(path):
            return Diagnostic(
                severity: .error, code: .exportCancelled, message: "export cancelled; the package was not written",
                file: path)
        default:
            return Diagnostic(severity: .error, code: .outputUnwritable, message: error.description)
        }
    }
}
