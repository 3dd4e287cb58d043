import FlowLoader
import FlowPackage
import FlowProject

/// Text that came from a package, a feed or a peer, made safe to print: a package's name or
/// entry path must never move the cursor, recolour the terminal, set its title or forge an
/// output line. Every control character (C0, DEL, C1) and every bidirectional override is
/// shown as an escape (`\n`, `\t`, `\r`, `\u{1B}`); all other text is unchanged.
enum TerminalText {
    /// `text` with every control character escaped, newlines included: one line, always.
    static func escaped(_ text: String) -> String { escaping(text, keepingLineBreaks: false) }

    /// `text` escaped; with `keepingLineBreaks`, CR and LF stay as they are, for a format that
    /// encodes them itself (GitHub's workflow commands).
    static func escaping(_ text: String, keepingLineBreaks: Bool) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar), !(keepingLineBreaks && (scalar == "\n" || scalar == "\r")) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// A message of several lines (an error whose lines this program wrote) with each line
    /// escaped: its own newlines stay, anything else a package put in it is shown escaped.
    static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(
            separator: "\n")
    }

    /// What an error that stopped a package command prints after `error: `: a `PackageError`'s
    /// problems one per line, each escaped whole (a hostile entry name cannot start a line of
    /// its own), with the package shown as `shownPath`.
    static func packageError(_ error: any Error, path: String, shownPath: String) -> String {
        if let error = error as? PackageError, case .invalidManifest = error {
            return lines(error.problems, shownPath: shownPath)
        }
        if let error = error as? PackageError, case .invalidPackage = error {
            return lines(error.problems, shownPath: shownPath)
        }
        return escapedLines("\(error)".replacingAll(path, with: shownPath))
    }

    /// What `run` prints after `error: ` when it cannot open what it was asked to run: a
    /// refused package's reasons each escaped whole, so a hostile entry name cannot start a
    /// line; any other error's lines escaped.
    static func runError(_ error: any Error) -> String {
        var loaderError = error as? LoaderError
        if case .refused(let refused)? = error as? RunTargetError { loaderError = refused }
        if case .packageRefused(let location, let reasons)? = loaderError {
            if reasons.count == 1 { return escaped(location) + ": " + escaped(reasons[0]) }
            return escaped(location) + " is refused:\n" + reasons.map { "  - " + escaped($0) }.joined(separator: "\n")
        }
        return escapedLines("\(error)")
    }

    /// `PKG: entry: message [FP7nn]` for each problem, escaped, its code last as a validate
    /// diagnostic has it.
    static func lines(_ problems: [PackageProblem], shownPath: String) -> String {
        problems.map { escaped(shownPath) + ": " + escaped($0.description) + " [\($0.code)]" }.joined(separator: "\n")
    }

    /// C0 and C1 controls, DEL, and the bidirectional embeddings, overrides and isolates
    /// (which reorder what follows them on the line).
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
