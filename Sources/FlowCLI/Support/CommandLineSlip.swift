import FlowAnalysis

/// Common slips on the command line, each caught with the fix in the message: a mistyped
/// command, `export --version 1.2` (the tool's own flag since the option became
/// `--package-version`), and arguments for the Lua program given to `run` without `--`.
enum CommandLineSlip {
    /// The whole error (`error: ...` and a hint) for a slip ArgumentParser would not explain
    /// well, or nil when the arguments are fine as far as this can tell.
    static func find(in arguments: [String], commands: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        guard commands.contains(first) else {
            var text = "error: unknown command '\(first)'"
            if let close = suggestion(for: first, among: commands.filter { $0 != "help" }) {
                text += "; did you mean '\(close)'?"
            }
            return text + "\nSee 'flowpkg --help' for the commands."
        }
        if first == "export" {
            let options = arguments.dropFirst().prefix { $0 != "--" }
            for (index, argument) in zip(options.indices, options) {
                var value: String?
                if argument == "--version", index + 1 < arguments.count, arguments[index + 1] != "--" {
                    value = arguments[index + 1]
                } else if argument.hasPrefix("--version=") {
                    value = String(argument.dropFirst("--version=".count))
                }
                if let value, let start = value.first,
                    start.isNumber || (value.hasPrefix("v") && value.dropFirst().first?.isNumber == true)
                {
                    return "error: --version prints flowpkg's own version; "
                        + "set the package's version with --package-version \(value)\n"
                        + "(export's --version option was renamed --package-version)"
                }
            }
        }
        return nil
    }

    /// A hint to add to ArgumentParser's own message, when the slip is a known one.
    static func hint(for message: String, arguments: [String]) -> String? {
        guard arguments.first == "run", let first = message.split(separator: "\n").first,
            first.lowercased().firstRange(of: "unexpected argument") != nil
        else { return nil }
        // ArgumentParser names them: "Unexpected argument 'foo'", "2 unexpected arguments: 'a', 'b'".
        let extras = first.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        var kept = arguments
        for extra in extras.reversed() {
            if let index = kept.lastIndex(of: extra) { kept.remove(at: index) }
        }
        let command = (["flowpkg"] + kept + ["--"] + extras).map(Flowpkg.New.shellQuoted).joined(separator: " ")
        return "hint: to pass arguments to the Lua program put them after --: \(command)"
    }

    /// ArgumentParser writes `Error: `; every flowpkg message starts `error: `.
    static func lowercasePrefix(_ text: String) -> String {
        text.hasPrefix("Error: ") ? "error: " + text.dropFirst("Error: ".count) : text
    }

    /// The only command that starts with `word`, or else the one closest to it: within two
    /// edits (one for short words).
    static func suggestion(for word: String, among commands: [String]) -> String? {
        let lowered = word.lowercased()
        let prefixed = commands.filter { $0.hasPrefix(lowered) }
        if lowered.count >= 2, prefixed.count == 1 { return prefixed[0] }
        let scored = commands.map { ($0, Suggestions.editDistance(Array(lowered.utf8), Array($0.utf8))) }
        let limit = word.count <= 3 ? 1 : 2
        return scored.filter { $0.1 <= limit }.min { $0.1 < $1.1 }?.0
    }
}
