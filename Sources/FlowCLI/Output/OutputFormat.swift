import ArgumentParser

/// How a command prints its results: for people, for programs, or for GitHub Actions.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// `path:line:col: error: message [FPnnn]` lines and a summary, coloured on a terminal.
    case text
    /// One JSON document on stdout, keys in a fixed order.
    case json
    /// `::error file=...,line=...::message` workflow commands, which GitHub shows on the diff.
    case github
}

/// The `--format` option commands that report diagnostics share.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Output format: text, json or github (GitHub Actions annotations).")
    var format: OutputFormat = .text

    @Flag(help: "Show files by their absolute paths (for build systems, such as FlowpkgBuildPlugin's build log).")
    var absolutePaths = false

    /// The folder paths are shown relative to; empty shows them whole.
    var workingDirectory: String { absolutePaths ? "" : Terminal.workingDirectory }
}
