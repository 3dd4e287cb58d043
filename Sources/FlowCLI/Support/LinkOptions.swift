import ArgumentParser
import FlowProject

/// `--allow-outside-links`, for the commands that read a project: the one way (with
/// `FLOWPKG_ALLOW_OUTSIDE_LINKS=1`) to use linked files outside the project's repository.
struct LinkOptions: ParsableArguments {
    @Flag(
        name: .customLong("allow-outside-links"),
        help: ArgumentHelp(
            "Allow linked resources outside the project's repository (as FLOWPKG_ALLOW_OUTSIDE_LINKS=1 does).",
            discussion: "Never for a project you do not trust: its flowpkg.json could link any file."))
    var allowOutsideLinks = false

    /// Whether the flag or the environment gives the opt-in.
    var allowsOutsideLinks: Bool { allowOutsideLinks || OutsideLinks.allowedByEnvironment }

    /// Gives the flag's opt-in to every library call of this process (serve, run and lsp
    /// reload the project long after parsing); returns whether links outside are allowed.
    @discardableResult
    func apply() -> Bool {
        if allowOutsideLinks { OutsideLinks.allowForThisProcess() }
        return allowsOutsideLinks
    }
}
