import ArgumentParser
import FlowProject
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Flowpkg {
    /// `flowpkg validate`: reports every problem of a project at once, like a compiler.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check a project's flowpkg.json, Lua modules and resources.",
            discussion: """
                Reports every problem at once as `path:line:col: error: message [FPnnn]`: \
                the project file, module and resource names, that each module compiles with Lua \
                5.4, then requires, getResource calls and globals. Exits 0 when there are no \
                errors, 1 when there are (or warnings, with --strict). Without DIR, the project \
                is the first folder holding flowpkg.json from here upward.
                """
        )

        @Argument(
            help: "The project folder, holding flowpkg.json (default: found from here upward).",
            completion: .directory)
        var directory: String?

        @OptionGroup var output: OutputOptions

        @Flag(help: "Treat warnings as errors.")
        var strict = false

        @Flag(help: "Do not read LuaCATS annotations nor check types (FP901-FP910).")
        var noTypes = false

        @OptionGroup var links: LinkOptions

        init() {}

        func run() throws {
            MallocPad.forShortRun()
            var options = ValidationOptions(strict: strict)
            options.allowsOutsideLinks = links.apply()
            options.checksTypes = !noTypes
            let project = ProjectLocation.resolve(directory)
            let report = Validator.validate(projectAt: project.url, options: options)
            let renderer = DiagnosticRenderer(
                format: output.format,
                useColor: output.format == .text && Terminal.supportsColor(),
                workingDirectory: output.workingDirectory, projectAbove: project.above)
            print(renderer.render(report.diagnostics, summary: DiagnosticSummary(report)), terminator: "")
            if report.hasErrors { throw ExitCode.failure }
        }
    }
}
