/// One entry of flowpkg's catalogue of codes: the stable code a diagnostic carries (`FP401`),
/// the severity it has unless a rule says otherwise, a title, and the sentence an editor
/// shows on hovering it. Every entry is declared once, in `DiagnosticCodes.swift`; rules name
/// the entry (`.unknownRequire`), never the code's text.
public struct DiagnosticCode: Sendable, Hashable, CustomStringConvertible {
    /// The code as users see and search for it: `FP401`.
    public let code: String
    /// The severity a diagnostic with this code has unless the rule says otherwise.
    public let severity: Diagnostic.Severity
    /// A few words naming the problem, as docs/diagnostics.md's table does.
    public let title: String
    /// What the code means, in a sentence or two.
    public let explanation: String

    init(_ code: String, _ severity: Diagnostic.Severity, _ title: String, _ explanation: String) {
        self.code = code
        self.severity = severity
        self.title = title
        self.explanation = explanation
    }

    public var description: String { code }

    // Two entries are the same code whatever else they say.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension Diagnostic {
    /// A diagnostic with a code of the catalogue.
    public init(
        severity: Severity, code: DiagnosticCode, message: String, file: String? = nil,
        line: Int? = nil, column: Int? = nil, hint: String? = nil
    ) {
        self.init(
            severity: severity, code: code.code, message: message, file: file, line: line, column: column, hint: hint)
    }

    /// Whether this diagnostic carries `code`.
    public func has(_ code: DiagnosticCode) -> Bool { self.code == code.code }
}
