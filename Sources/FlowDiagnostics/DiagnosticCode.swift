/// One entry of flowpkg's catalogue of codes: the stable code a diagnostic carries (`FP401`),
/// the severity it has unless a rule says otherwise, a title, and the sentence an editor
/// shows on hovering it. Every entry is declared once, in `Codes/` (a file per hundred); rules name
/// the entry (`.unknownRequire`), never the code's text.
///
/// On the wire (`--format json`, the live server) a code is its text, `"FP401"`; reading one
/// back looks it up in the catalogue, and a code the catalogue lacks is a decoding error.
public struct DiagnosticCode: Sendable, Hashable, Comparable, CustomStringConvertible {
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

    /// The code's number: 401 for `FP401`.
    public var number: Int { Int(code.dropFirst(2)) ?? 0 }

    /// The part of flowpkg's work the code belongs to, by its hundred.
    public var area: Area {
        switch number / 100 {
        case 1: return .projectFile
        case 2: return .modulesAndResources
        case 3: return .moduleText
        case 5: return .export
        case 6: return .templates
        case 7: return .packages
        case 8: return .dependencies
        default: return .analysis
        }
    }

    /// The catalogue's areas, one per hundred codes, as docs/diagnostics.md groups them.
    public enum Area: Sendable, CaseIterable {
        /// FP1xx: flowpkg.json, and the project folder it describes.
        case projectFile
        /// FP2xx: which files are modules and resources.
        case modulesAndResources
        /// FP3xx: each module's text (encoding, size, syntax).
        case moduleText
        /// FP4xx and FP9xx: static analysis and lint.
        case analysis
        /// FP5xx: writing a package.
        case export
        /// FP6xx: templates.
        case templates
        /// FP7xx: reading and verifying a package.
        case packages
        /// FP8xx: dependencies, flowpkg.lock and LuaRocks.
        case dependencies
    }

    // Two entries are the same code whatever else they say.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.code < rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension DiagnosticCode: Codable {
    /// Reads a code's text and finds it in the catalogue.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let entry = DiagnosticCodes.entry(for: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown diagnostic code '\(text)': flowpkg's catalogue has no such code")
        }
        self = entry
    }

    /// Writes the code's text, `"FP401"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}

extension Diagnostic {
    /// Whether this diagnostic carries `code`.
    public func has(_ code: DiagnosticCode) -> Bool { self.code == code }
}
