import Dispatch
import FlowDiagnostics
import FlowProject
import FlowPackage
import FlowSupport

/// The counts a diagnostics summary shows.
struct DiagnosticSummary: Equatable, Sendable {
    var errors: Int
    var warnings: Int
    var modules: Int
    var resources: Int

    init(errors: Int, warnings: Int, modules: Int, resources: Int) {
        self.errors = errors
        self.warnings = warnings
        self.modules = modules
        self.resources = resources
    }

    init(_ report: ValidationReport) {
        self.init(
            errors: report.errorCount, warnings: report.warningCount, modules: report.moduleCount,
            resources: report.resourceCount)
    }

    /// `2 errors, 1 warning in 14 modules and 3 resources`.
    var sentence: String {
        "\(Self.count(errors, "error")), \(Self.count(warnings, "warning")) in "
            + "\(Self.count(modules, "module")) and \(Self.count(resources, "resource"))"
    }

    static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
}

/// Turns diagnostics into text, JSON or GitHub annotations; paths are shown relative to the
/// working directory when they are inside it.
struct DiagnosticRenderer {
    var format: OutputFormat
    var useColor = false
    var workingDirectory: String
    /// A project folder above the working directory (found by looking upward): paths in it are
    /// shown relative to the working directory too, with `../`.
    var projectAbove: String?

    /// The whole output for a list of diagnostics and its summary, ending in a newline.
    func render(_ diagnostics: [Diagnostic], summary: DiagnosticSummary) -> String {
        switch format {
        case .text:
            return texts(diagnostics) + summaryLine(summary) + "\n"
        case .json:
            return JSONReport.text(
                JSONReport.Validation(
                    diagnostics: diagnostics.map { JSONReport.DiagnosticEntry($0, renderer: self) },
                    summary: JSONReport.Summary(summary)))
        case .github:
            return diagnostics.map { github($0) + "\n" }.joined() + summary.sentence + "\n"
        }
    }

    /// Each diagnostic's text on a line of its own. Thousands of findings (a large project's lint)
    /// are rendered in a few slices at once: this is the last serial step of `validate`
    /// (Benchmarks/README.md, lint speed).
    func texts(_ diagnostics: [Diagnostic]) -> String {
        let slices = diagnostics.count >= 2_048 ? 4 : 1
        guard slices > 1 else { return diagnostics.map { text($0) + "\n" }.joined() }
        let parts = Locked([String](repeating: "", count: slices))
        let size = (diagnostics.count + slices - 1) / slices
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            let range = slice * size..<min(diagnostics.count, (slice + 1) * size)
            let part = diagnostics[range].map { text($0) + "\n" }.joined()
            parts.withLock { $0[slice] = part }
        }
        return parts.withLock { $0.joined() }
    }

    /// Shows `path` relative to the working directory when it is inside it.
    func displayPath(_ path: String) -> String {
        if workingDirectory.isEmpty { return path }
        if path == workingDirectory { return "." }
        let prefix = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
        if let projectAbove, path == projectAbove || path.hasPrefix(projectAbove + "/"),
            workingDirectory.hasPrefix(projectAbove + "/")
        {
            return PathText.relative(path, from: workingDirectory)
        }
        return path
    }

    // MARK: Text

    /// `path:line:col: error: message [FPnnn]`, then an indented `hint:` line when there is one
    /// (FlowDiagnostics' text, which the build plugin's tool prints too), in colour when asked.
    ///
    /// Every part is escaped (`TerminalText`): a file name, a Lua syntax error's token, a
    /// `.luacheckrc` message or a flowpkg.json value can hold ESC, BEL, CR or a newline, which
    /// would set the terminal's title, clear it or forge a `file:line: error:` line in a CI log.
    func text(_ diagnostic: Diagnostic) -> String {
        Self.escaped(diagnostic).text(path: { TerminalText.escaped(displayPath($0)) }) { text, part in
            switch part {
            case .location, .message: paint(text, Style.bold)
            case .severity(.error): paint(text, Style.boldRed)
            case .severity(.warning): paint(text, Style.boldYellow)
            case .severity(.note): paint(text, Style.boldCyan)
            case .hint: paint(text, Style.boldGreen)
            }
        }
    }

    /// `diagnostic` with its message, hint and file escaped for a terminal.
    static func escaped(_ diagnostic: Diagnostic, keepingLineBreaks: Bool = false) -> Diagnostic {
        var safe = diagnostic
        safe.message = TerminalText.escaping(diagnostic.message, keepingLineBreaks: keepingLineBreaks)
        safe.hint = diagnostic.hint.map { TerminalText.escaping($0, keepingLineBreaks: keepingLineBreaks) }
        return safe
    }

    func summaryLine(_ summary: DiagnosticSummary) -> String {
        let style = summary.errors > 0 ? Style.boldRed : summary.warnings > 0 ? Style.boldYellow : Style.boldGreen
        return paint(summary.sentence, style)
    }

    private enum Style {
        static let bold = "\u{1B}[1m"
        static let boldRed = "\u{1B}[1;31m"
        static let boldYellow = "\u{1B}[1;33m"
        static let boldCyan = "\u{1B}[1;36m"
        static let boldGreen = "\u{1B}[1;32m"
        static let reset = "\u{1B}[0m"
    }

    private func paint(_ text: String, _ style: String) -> String {
        useColor ? style + text + Style.reset : text
    }

    // MARK: GitHub

    /// A workflow command: `::error file=F,line=L,col=C,title=FPnnn::message`; the hint follows
    /// the message on its own line.
    func github(_ diagnostic: Diagnostic) -> String {
        let command: String
        switch diagnostic.severity {
        case .error: command = "error"
        case .warning: command = "warning"
        case .note: command = "notice"
        }
        // Line breaks are encoded as GitHub's toolkit does (%0D, %0A); any other control is escaped.
        let diagnostic = Self.escaped(diagnostic, keepingLineBreaks: true)
        var properties: [String] = []
        if let file = diagnostic.file {
            properties.append("file=" + Self.githubProperty(TerminalText.escaped(displayPath(file))))
        }
        if let line = diagnostic.line { properties.append("line=\(line)") }
        if let column = diagnostic.column { properties.append("col=\(column)") }
        properties.append("title=" + Self.githubProperty(diagnostic.code.code))
        var message = diagnostic.message
        if let hint = diagnostic.hint { message += "\nhint: " + hint }
        return "::\(command) " + properties.joined(separator: ",") + "::" + Self.githubData(message)
    }

    /// Escapes a message as GitHub's toolkit does (`escapeData`).
    static func githubData(_ value: String) -> String {
        value.replacingAll("%", with: "%25").replacingAll("\r", with: "%0D").replacingAll("\n", with: "%0A")
    }

    /// Escapes a property value as GitHub's toolkit does (`escapeProperty`).
    static func githubProperty(_ value: String) -> String {
        githubData(value).replacingAll(":", with: "%3A").replacingAll(",", with: "%2C")
    }
}

extension String {
    /// Works on Unicode scalars, not Characters: "\r\n" is one Character but two things to escape.
    fileprivate func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        guard unicodeScalars.contains(target) else { return self }
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == target { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }
}
