/// The parts of a diagnostic's compiler-style line a renderer may colour.
public enum DiagnosticTextPart: Sendable {
    /// `path:line:col:`
    case location
    /// `error:`, `warning:` or `note:`, by severity.
    case severity(Diagnostic.Severity)
    case message
    /// `hint:`
    case hint
}

extension Diagnostic {
    /// `path:line:col: error: message [FPnnn]`, then an indented `hint:` line when there is one:
    /// the line `flowpkg validate` and `export` print and the build plugin's tool prints too, so
    /// both give the same text. `path` turns the file into what is shown (relative to a folder,
    /// or whole); `paint` colours a part (the CLI's terminal colours), or leaves it as it is.
    public func text(
        path: (String) -> String = { $0 }, paint: (String, DiagnosticTextPart) -> String = { text, _ in text }
    ) -> String {
        var location = ""
        if let file {
            location = path(file)
            if let line {
                location += ":\(line)"
                if let column { location += ":\(column)" }
            }
            location = paint(location + ":", .location) + " "
        }
        var text =
            "\(location)\(paint("\(severity.rawValue):", .severity(severity))) \(paint(message, .message)) [\(code)]"
        if let hint { text += "\n    " + paint("hint:", .hint) + " " + hint }
        return text
    }
}
