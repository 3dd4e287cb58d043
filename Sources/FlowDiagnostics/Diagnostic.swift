/// One problem found in a project: a plain value that renderers turn into text, JSON or
/// GitHub annotations.
public struct Diagnostic: Sendable, Equatable, Hashable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case error, warning, note

        private var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    /// A stable code (`FP101`) that tests and users can search for.
    public var code: DiagnosticCode
    public var message: String
    /// The file concerned, as the user should see it (relative to the working directory when inside it).
    public var file: String?
    public var line: Int?
    public var column: Int?
    /// How to fix it, when there is something useful to say.
    public var hint: String?

    public init(
        severity: Severity, code: DiagnosticCode, message: String, file: String? = nil,
        line: Int? = nil, column: Int? = nil, hint: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint
    }
}
