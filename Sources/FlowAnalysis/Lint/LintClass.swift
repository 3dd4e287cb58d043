import FlowDiagnostics
import LuaSyntax

/// A luacheck warning class flowpkg reports: one file under `Lint/Rules/` each, holding its
/// catalogue entry (`entry`: code, luacheck number, title, explanation), luacheck's wording and what
/// it checks, as a swift-format rule holds its finding's message and its visit methods.
///
/// What it checks: the hooks the linter's one walk (`ModuleLinter`, a `SyntaxVisitor`) calls,
/// each doing nothing unless the rule has it: `visit` for the node kinds `visits` names, a
/// declaration hiding another, a local's end (its scope's), a function's end. A class found
/// elsewhere has none: values' flow (3xx, `ValueFlow`), the bytes (6xx, `WhitespaceLint`), `;`
/// (551, the parser), globals judged against the project's environment (1xx, `LintRules`).
///
/// Adding a rule is adding its file, its fixture under `Tests/Fixtures/invalid/<code>/` and its
/// row in docs/diagnostics.md: the build (the `RegisterLintRules` plugin, `LintRuleGenerator`)
/// reads the rule files and writes each entry into FlowDiagnostics' catalogue (a `DiagnosticCode`
/// named after the rule, `EmptyDoBlockRule`: `.emptyDoBlock`), each rule's `code` and
/// `luacheckNumber`, and `LintRuleList.forEach`, by luacheck number. A file without a rule or an
/// entry, or two rules with one code or number, fails the build at its line.
protocol LintClass: Sendable {
    /// The rule's catalogue entry, the one place its code, luacheck number, title and explanation
    /// are written: `static let entry = LintCatalogueEntry(code: "FP456", luacheck: 541, ...)`.
    static var entry: LintCatalogueEntry { get }
    /// The rule's entry in the catalogue (generated from `entry`).
    static var code: DiagnosticCode { get }
    /// luacheck's number for it: how `.luacheckrc` options and `-- luacheck:` comments name it
    /// (generated from `entry`).
    static var luacheckNumber: Int { get }
    /// luacheck's message for a finding and the name the options' patterns match, or nil when
    /// the options leave the finding out.
    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)?

    /// Whether the rule visits nodes of `kind` (`visit`): none unless it says.
    static func visits(_ kind: SyntaxKind) -> Bool
    /// A node of a kind the rule visits, before its children.
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter)
    /// A local, argument or loop variable declared where one of the same name is in scope.
    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter)
    /// A variable's scope ends: every use of it has been seen.
    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter)
    /// A function's body (the main chunk's too) has been walked.
    static func functionEnds(_ frame: ModuleLinter.FunctionFrame, in linter: inout ModuleLinter)
}

/// A name being declared, and where.
struct Declaration {
    var symbol: Int32
    var line: Int32
    var column: Int32
}

extension LintClass {
    /// A value's fate in the 31x messages: unused, or overwritten on the line `detail` names.
    static func fate(_ finding: LintFinding) -> String {
        finding.detail.isEmpty ? "is unused" : "is overwritten on line \(finding.detail) before use"
    }

    @inline(__always) static func visits(_ kind: SyntaxKind) -> Bool { false }
    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {}
    static func declared(
        _ declaration: Declaration, hiding earlier: ModuleLinter.Variable, in linter: inout ModuleLinter
    ) {}
    static func variableEnds(_ variable: ModuleLinter.Variable, in linter: inout ModuleLinter) {}
    static func functionEnds(_ frame: ModuleLinter.FunctionFrame, in linter: inout ModuleLinter) {}

    /// A finding of this rule.
    static func finding(line: Int32, column: Int32, name: String = "", detail: String = "") -> LintFinding {
        LintFinding(luacheckNumber, line: line, column: column, name: name, detail: detail)
    }
}

/// Something done with each rule in turn: generic, so each use is specialised, with no
/// existential call per node (the linter's dispatch, `LintRuleDispatch.swift`).
protocol LintRuleVisitor {
    mutating func rule<Rule: LintClass>(_ rule: Rule.Type)
}

/// The rules, in one list: `forEach` hands each rule to a visitor, by luacheck number, generated
/// from the rule files (`LintRuleGenerator`).
enum LintRuleList {
    /// The rules, as values.
    static let all: [any LintClass.Type] = {
        struct Collector: LintRuleVisitor {
            var rules: [any LintClass.Type] = []
            mutating func rule<Rule: LintClass>(_ rule: Rule.Type) { rules.append(rule) }
        }
        var collector = Collector()
        forEach(&collector)
        return collector.rules
    }()

    /// The rules by their code in the catalogue.
    static let byCode: [DiagnosticCode: any LintClass.Type] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The rule a finding's luacheck number names, through the catalogue.
    static func rule(for warning: LuacheckWarning) -> (any LintClass.Type)? {
        DiagnosticCodes.byLuacheckNumber[warning.rawValue].flatMap { byCode[$0] }
    }
}
