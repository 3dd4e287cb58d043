import ArgumentParser
import FlowProject
import Foundation

extension Flowpkg {
    /// `flowpkg validate`: reports every problem of a project at once, like a compiler.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a project's flowpkg.json, Lua modules and resources.",
            discussion: """
                Reports every problem at once as `path:line:col: error: message [FPnnn]`: \
                the project file, module and resource names, each module compiled with Lua \
                5.4, then requires, getResource calls and globals. Exits 0 when there are no \
                errors, 1 when there are (or warnings, with --strict).
                """
        )

        @Argument(help: "The project folder, holding flowpkg.json.", completion: .directory)
        var directory: String = "."

        @OptionGroup var output: OutputOptions

        @Flag(help: "Treat warnings as errors.")
        var strict = false

        init() {}

        func run() throws {
            let options = ValidationOptions(strict: strict)
            let report = Validator.validate(projectAt: URL(fileURLWithPath: directory), options: options)
            let renderer = DiagnosticRenderer(format: output.format,
                                              useColor: output.format == .text && Terminal.supportsColor(),
                                              workingDirectory: Terminal.workingDirectory)
            print(renderer.render(report.diagnostics, summary: DiagnosticSummary(report)), terminator: "")
            if report.hasErrors { throw ExitCode.failure }
        }
    }
}
