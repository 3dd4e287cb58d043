import ArgumentParser
import FlowProject
import FlowPackage
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

extension Flowpkg {
    /// `flowpkg export`: validates a project and writes its reproducible `.luapkg`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Validate a project and package it as a reproducible .luapkg.",
            discussion: """
                Runs validate first: any error is printed and nothing is written. The package \
                is written beside its output path and renamed into place, so an interrupted \
                export never leaves half a package and an older one stays untouched. Entry \
                times come from SOURCE_DATE_EPOCH when it is set.

                An existing file is replaced only when it is a package (a zip whose first entry \
                is manifest.json), and never among the project's sources or resources: \
                anything else needs --force. Without DIR, the project is the first folder \
                holding flowpkg.json from here upward.

                --package-version sets the package's version (it was --version, which now \
                prints flowpkg's own version, as everywhere else).
                """
        )

        @Argument(
            help: "The project folder, holding flowpkg.json (default: found from here upward).",
            completion: .directory)
        var directory: String?

        @Option(
            name: .shortAndLong,
            help:
                "The package to write (default: <name>-<version>.luapkg here, or beside flowpkg.json when the project was found above).",
            completion: .file(extensions: ["luapkg"]))
        var output: String?

        @Option(help: "Package identifier to use instead of flowpkg.json's.")
        var identifier: String?

        @Option(
            name: .customLong("package-version"),
            help: ArgumentHelp("Version to use instead of flowpkg.json's (e.g. from a CI tag).", valueName: "version"))
        var packageVersion: String?

        @Flag(help: "Replace the output even if it is not a package or lies among the project's files.")
        var force = false

        @Flag(help: "Treat warnings as errors.")
        var strict = false

        @Flag(help: "List every warning (by default one line counts them; flowpkg validate lists them).")
        var verbose = false

        @Option(
            help: ArgumentHelp(
                "Sign the package with this private key (made by flowpkg keygen).", valueName: "key-file"),
            completion: .file(extensions: ["key"]))
        var sign: String?

        @Option(help: "The host runtime version the package needs, instead of flowpkg.json's runtimeVersion.")
        var runtimeVersion: String?

        @Flag(help: "Fail when flowpkg.lock is missing or out of date, or a path dependency changed since it.")
        var locked = false

        @Flag(help: "Run no luarocks and touch no network: dependency files come from flowpkg's cache or vendor/.")
        var offline = false

        @OptionGroup var servers: RocksServerOptions
        @OptionGroup var format: OutputOptions

        @OptionGroup var links: LinkOptions

        init() {}

        func run() throws {
            MallocPad.forShortRun()
            let cancellation = PackageCancellation()
            // Ctrl-C cancels the writer, which removes its temporary file and leaves the output
            // path as it was; the default action comes back after.
            Interrupt.handle([SIGINT]) { _ in
                cancellation.cancel()
                StandardStream.error.write("\ncancelling the export…\n")
            }
            defer { Interrupt.restoreDefault() }
            let bar = ProgressBar.forStandardError()
            defer { bar?.finish() }

            var progress: (@Sendable (PackageWriteProgress) -> Void)?
            if let bar { progress = { bar.update($0) } }
            let project = ProjectLocation.resolve(directory)
            // A project found above: its package goes beside its flowpkg.json, as cargo puts
            // target/ in the package's folder, not into the sources the user is in.
            let home = project.above == nil || output != nil ? nil : project.url
            var options = ExportOptions(
                output: output,
                workingDirectory: home ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                identifier: identifier, version: packageVersion, strict: strict, force: force,
                progress: progress, cancellation: cancellation)
            options.signingKey = try SigningOptions.loadKey(sign)
            options.runtimeVersion = runtimeVersion
            options.allowsOutsideLinks = links.apply()
            options.dependencies = servers.dependencyOptions(locked: locked, offline: offline)
            let result = Exporter.export(projectAt: project.url, options: options)
            bar?.finish()

            let renderer = DiagnosticRenderer(
                format: format.format,
                useColor: format.format == .text && Terminal.supportsColor(),
                workingDirectory: format.workingDirectory, projectAbove: project.above)
            print(Self.render(result, renderer, listsWarnings: verbose || strict), terminator: "")
            if let key = options.signingKey, result.package != nil, format.format != .json {
                print("signed: ed25519 key \(key.publicKey.keyID)")
            }
            if result.wasCancelled { throw ExitCode(130) }
            if result.package == nil { throw ExitCode.failure }
        }

        /// Errors as `validate` prints them, warnings too with `listsWarnings` (else one line
        /// counts them), then what was written.
        static func render(_ result: ExportResult, _ renderer: DiagnosticRenderer, listsWarnings: Bool = true)
            -> String
        {
            let summary = DiagnosticSummary(
                errors: result.errorCount, warnings: result.warningCount,
                modules: result.moduleCount, resources: result.resourceCount)
            switch renderer.format {
            case .text, .github:
                let shown = result.diagnostics.filter { listsWarnings || $0.severity != .warning }
                var out =
                    renderer.format == .text
                    ? shown.map { renderer.text($0) + "\n" }.joined()
                    : shown.map { renderer.github($0) + "\n" }.joined()
                let hidden = result.diagnostics.count - shown.count
                if hidden > 0 {
                    out +=
                        "\(DiagnosticSummary.count(hidden, "warning")) not listed "
                        + "(flowpkg validate lists them, as export --verbose does)\n"
                }
                guard let package = result.package else {
                    return out + summary.sentence + "; nothing was written\n"
                }
                let manifest = package.manifest
                out +=
                    "exported \(renderer.displayPath(package.url.path)): \(manifest.identifier) \(manifest.version), "
                    + "\(DiagnosticSummary.count(manifest.modules.count, "module")), "
                    + "\(DiagnosticSummary.count(manifest.resources.count, "resource")), "
                    + (manifest.scripts.isEmpty ? "" : "\(DiagnosticSummary.count(manifest.scripts.count, "script")), ")
                    + "\(package.bytes) bytes"
                    + (summary.warnings > 0 ? " (\(DiagnosticSummary.count(summary.warnings, "warning")))" : "") + "\n"
                out += "digest: sha256:\(manifest.digest)\n"
                out += "file sha256: \(package.sha256)\n"
                return out
            case .json:
                return JSONReport.text(
                    JSONReport.Export(
                        diagnostics: result.diagnostics.map { JSONReport.DiagnosticEntry($0, renderer: renderer) },
                        summary: JSONReport.Summary(summary),
                        package: result.package.map { package in
                            JSONReport.Export.Package(
                                path: renderer.displayPath(package.url.path),
                                identifier: package.manifest.identifier.rawValue, version: package.manifest.version,
                                digest: package.manifest.digest, sha256: package.sha256,
                                modules: package.manifest.modules.count, resources: package.manifest.resources.count,
                                bytes: package.bytes)
                        }))
            }
        }
    }
}

/// A one-line progress bar on stderr, drawn only when stderr is a terminal and only once
/// the work has taken more than a moment (half a second).
private final class ProgressBar: Sendable {
    private struct State {
        var lastDraw = Date.distantPast
        var drawn = false
        var finished = false
    }

    private let started = Date()
    private let state = Locked(State())

    static func forStandardError() -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" ? ProgressBar() : nil
    }

    /// Draws the bar over both phases (hashing is the first half, writing the second) and names the phase.
    func update(_ progress: PackageWriteProgress) {
        state.withLock { state in
            let now = Date()
            let total = progress.total
            guard !state.finished, total > 0, now.timeIntervalSince(started) > 0.5,
                now.timeIntervalSince(state.lastDraw) > 0.1
            else { return }
            state.lastDraw = now
            state.drawn = true
            let phaseFraction = min(1, Double(progress.done) / Double(total))
            let fraction = progress.phase == .hashing ? phaseFraction / 2 : 0.5 + phaseFraction / 2
            let width = 30
            let filled = Int(fraction * Double(width))
            let line =
                "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
                + String(printf: "%3d%%  ", Int(fraction * 100)) + progress.phase.rawValue
                + String(printf: " %.1f / %.1f MB", Double(progress.done) / 1e6, Double(total) / 1e6)
            StandardStream.error.write(line)
        }
    }

    /// Clears the bar's line, so what follows starts on a clean line.
    func finish() {
        state.withLock { state in
            if state.drawn, !state.finished { StandardStream.error.write("\r\u{1B}[K") }
            state.finished = true
        }
    }
}
