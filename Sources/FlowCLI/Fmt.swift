import ArgumentParser
import FlowFormat
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Flowpkg {
    /// `flowpkg fmt`: StyLua's layout for StyLua's configuration, each result checked against
    /// the original's bytecode before it is written.
    struct Fmt: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fmt",
            abstract: "Format Lua files as StyLua does, never changing what they mean.",
            discussion: """
                Formats the Lua files named (folders are searched), or without PATHS the \
                project's Lua files (not vendor/ or lua_modules/), in place, with the StyLua \
                configuration found from each file's folder upward (stylua.toml, .stylua.toml, \
                else .editorconfig) and .styluaignore. Only files that change are written, each \
                atomically, and only after Lua 5.4 compiled the result to the same bytecode as \
                the original. --check writes nothing, prints a unified diff for each file that \
                would change and exits 1. A file with a syntax error is reported and left as it \
                is; the others are formatted.
                """
        )

        @Argument(help: "Files or folders to format (default: the project's Lua files).", completion: .file())
        var paths: [String] = []

        @Flag(help: "Write nothing: print a diff for each file that would change, exit 1 if any would.")
        var check = false

        @Flag(help: "With --check, also compile both versions and compare their bytecode (always done before a write).")
        var verify = false

        @Flag(help: "Name each file and what became of it, and count them.")
        var verbose = false

        @Option(help: "Format standard input to standard output, with the configuration found for PATH.")
        var stdinFilepath: String?

        @Option(help: "Format only the statements that meet this byte range: its first byte.")
        var rangeStart: Int?

        @Option(help: "Format only the statements that meet this byte range: the byte after its end.")
        var rangeEnd: Int?

        @Flag(
            help: """
                Only the Lua files git sees changed against HEAD, or against the ref given as the \
                first PATH when no such file or folder exists (`fmt --changed main`); untracked \
                files included.
                """)
        var changed = false

        @OptionGroup var output: OutputOptions

        init() {}

        func validate() throws {
            if let rangeStart, let rangeEnd, rangeStart > rangeEnd {
                throw ValidationError("--range-start must not be after --range-end")
            }
        }

        func run() throws {
            MallocPad.forShortRun()
            var run = FormatRun()
            run.check = check
            run.verify = verify
            if rangeStart != nil || rangeEnd != nil { run.range = (rangeStart ?? 0)..<(rangeEnd ?? Int.max) }
            let report = FmtOutput(format: output.format, workingDirectory: output.workingDirectory, verbose: verbose)
            if let stdinFilepath {
                guard try report.formatStandardInput(run, configurationFor: stdinFilepath) else {
                    throw ExitCode.failure
                }
                return
            }
            let files = try FmtFiles.resolve(paths: paths, changed: changed)
            let results = report.formatFiles(files, run)
            guard report.show(results, check: check) else { throw ExitCode.failure }
        }
    }
}
