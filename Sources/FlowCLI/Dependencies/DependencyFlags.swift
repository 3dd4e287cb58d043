import ArgumentParser
import FlowDependencies
import FlowDiagnostics
import FlowProject
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `--rocks-server`, shared by the commands that may run LuaRocks.
struct RocksServerOptions: ParsableArguments {
    @Option(
        name: .customLong("rocks-server"),
        help: ArgumentHelp(
            "A rocks server (URL, or a folder made by luarocks-admin make-manifest) to use instead of flowpkg.json's rocksServers; repeat for several.",
            valueName: "url-or-dir"))
    var rocksServers: [String] = []

    /// The options, folders made absolute against the current folder.
    func dependencyOptions(locked: Bool = false, offline: Bool = false) -> DependencyOptions {
        let cwd = FileManager.default.currentDirectoryPath
        // `firstRange(of:)`, the standard library's: `contains` would pick Foundation's overload here
        // (ArgumentParser imports Foundation), which the release binary must not link.
        let servers = rocksServers.map { $0.firstRange(of: "://") != nil ? $0 : PathText.resolve($0, against: cwd) }
        return DependencyOptions(locked: locked, offline: offline, rocksServers: servers.isEmpty ? nil : servers)
    }
}

/// What the dependency commands print: diagnostics on stderr as validate prints them, the
/// changes on stdout, and exit 1 when something failed.
enum DependencyReport {
    static func finish(_ outcome: DependencyLocking.Outcome, format: OutputOptions, done: String) throws {
        let renderer = DiagnosticRenderer(
            format: format.format, useColor: format.format == .text && Terminal.supportsColor(),
            workingDirectory: format.workingDirectory, projectAbove: nil)
        switch format.format {
        case .json:
            print(
                JSONReport.text(
                    DependencyJSON(
                        succeeded: outcome.succeeded, changes: outcome.changes,
                        diagnostics: outcome.diagnostics.map { JSONReport.DiagnosticEntry($0, renderer: renderer) },
                        dependencies: outcome.lock?.dependencies.map {
                            .init(name: $0.name, kind: $0.kind, version: $0.version, modules: $0.modules.count)
                        } ?? [])),
                terminator: "")
        case .text, .github:
            for diagnostic in outcome.diagnostics {
                StandardStream.error.write(
                    (format.format == .text ? renderer.text(diagnostic) : renderer.github(diagnostic)) + "\n")
            }
            for change in outcome.changes { print(change) }
            if outcome.succeeded, !done.isEmpty { print(done) }
        }
        if !outcome.succeeded { throw ExitCode.failure }
    }

    struct DependencyJSON: Encodable {
        var succeeded: Bool
        var changes: [String]
        var diagnostics: [JSONReport.DiagnosticEntry]
        var dependencies: [Entry]

        struct Entry: Encodable {
            var name: String
            var kind: String
            var version: String
            var modules: Int
        }
    }
}
