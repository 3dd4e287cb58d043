/// A lint rule's entry in the catalogue, as its file under `Sources/FlowAnalysis/Lint/Rules/`
/// declares it (`static let entry = LintCatalogueEntry(code: "FP456", luacheck: 541, ...)`): the
/// one place a rule's code, luacheck number, title and explanation are written.
///
/// FlowDiagnostics sits below FlowAnalysis and cannot read the rules, so the build copies each
/// entry: the `RegisterLintRules` plugin runs `LintRuleGenerator` over the rule files, which writes
/// the entry, as written, into a `DiagnosticCode` static named after the rule
/// (`EmptyDoBlockRule`: `DiagnosticCode.emptyDoBlock`) and `DiagnosticCodes.lintRules`, and into
/// FlowAnalysis each rule's `code` and `luacheckNumber` and `LintRuleList.forEach`.
public struct LintCatalogueEntry: Sendable {
    /// The code as users see it: `FP456`.
    public let code: String
    /// luacheck's number for the class: how `.luacheckrc` options and `-- luacheck:` comments name it.
    public let luacheck: Int
    /// A few words naming the problem; the catalogue's title adds `(luacheck 541)`.
    public let title: String
    /// What the code means, in a sentence or two.
    public let explanation: String

    public init(code: String, luacheck: Int, title: String, explanation: String) {
        self.code = code
        self.luacheck = luacheck
        self.title = title
        self.explanation = explanation
    }
}

extension DiagnosticCode {
    /// A lint rule's entry in the catalogue: a warning (every lint class can be silenced), its
    /// title followed by its luacheck number.
    init(_ entry: LintCatalogueEntry) {
        self.init(entry.code, .warning, "\(entry.title) (luacheck \(entry.luacheck))", entry.explanation)
    }
}
