import ArgumentParser

/// How `flowpkg test` prints its report.
enum TestFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// Each failure and error with its place and message, then the counts.
    case text
    /// busted's JSON output: successes, failures, errors, pendings, duration.
    case json
    /// JUnit XML, as CI systems read it.
    case junit
    /// The Test Anything Protocol, as busted's TAP output writes it.
    case tap
    /// GitHub Actions annotations on each failure and error, then the counts.
    case github

    /// `.busted`'s `output` handler name, where flowpkg has one like it.
    init?(bustedOutput name: String) {
        switch name {
        case "utfTerminal", "plainTerminal", "gtest": self = .text
        case "json": self = .json
        case "junit": self = .junit
        case "TAP": self = .tap
        default: return nil
        }
    }
}
