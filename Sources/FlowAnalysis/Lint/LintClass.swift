import FlowDiagnostics
import LuaSyntax

/// A luacheck warning class flowpkg reports: one file under `Lint/Rules/` each, holding its code
/// in the catalogue, its luacheck number, luacheck's wording and what it checks, registered in
/// `LintRuleList`, as a swift-format rule holds its finding's message and its visit methods.
///
/// What it checks: the hooks the linter's one walk (`ModuleLinter`, a `SyntaxVisitor`) calls,
/// each doing nothing unless the rule has it: `visit` for the node kinds `visits` names, a
/// declaration hiding another, a local's end (its scope's), a function's end. A class found
/// elsewhere has none: values' flow (3xx, `ValueFlow`), the bytes (6xx, `WhitespaceLint`), `;`
/// (551, the parser), globals judged against the project's environment (1xx, `LintRules`).
///
/// Adding a rule: its code in FlowDiagnostics' catalogue (and `byLuacheckNumber`), one file there
/// registered in `LintRuleList.forEach`, its fixture under `Tests/Fixtures/invalid/<code>/`, its
/// row in docs/diagnostics.md.
protocol LintClass: Sendable {
    /// The rule's entry in the catalogue.
    static var code: DiagnosticCode { get }
    /// luacheck's number for it: how `.luacheckrc` options and `-- luacheck:` comments name it.
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

/// The rules, in one list.
enum LintRuleList {
    /// Hands each rule to `visitor`, in the list's order.
    @inline(__always)
    static func forEach<Visitor: LintRuleVisitor>(_ visitor: inout Visitor) {
        visitor.rule(SettingGlobalRule.self)
        visitor.rule(MutatingGlobalRule.self)
        visitor.rule(SettingReadOnlyGlobalRule.self)
        visitor.rule(SettingReadOnlyFieldRule.self)
        visitor.rule(UnusedGlobalRule.self)
        visitor.rule(SettingUndefinedFieldRule.self)
        visitor.rule(UndefinedFieldRule.self)
        visitor.rule(UnusedVariableRule.self)
        visitor.rule(UnusedArgumentRule.self)
        visitor.rule(UnusedLoopVariableRule.self)
        visitor.rule(UsedUnusedHintRule.self)
        visitor.rule(VariableNeverSetRule.self)
        visitor.rule(VariableNeverAccessedRule.self)
        visitor.rule(ArgumentNeverAccessedRule.self)
        visitor.rule(LoopVariableNeverAccessedRule.self)
        visitor.rule(VariableMutatedNeverAccessedRule.self)
        visitor.rule(UnusedValueRule.self)
        visitor.rule(UnusedArgumentValueRule.self)
        visitor.rule(UnusedLoopValueRule.self)
        visitor.rule(FieldOverwrittenRule.self)
        visitor.rule(UninitializedAccessRule.self)
        visitor.rule(MutatedUnusedValueRule.self)
        visitor.rule(UninitializedMutationRule.self)
        visitor.rule(RedefinedLocalRule.self)
        visitor.rule(RedefinedArgumentRule.self)
        visitor.rule(RedefinedLoopVariableRule.self)
        visitor.rule(ShadowedLocalRule.self)
        visitor.rule(ShadowedArgumentRule.self)
        visitor.rule(ShadowedLoopVariableRule.self)
        visitor.rule(ShadowedUpvalueRule.self)
        visitor.rule(ShadowedUpvalueArgumentRule.self)
        visitor.rule(ShadowedUpvalueLoopVariableRule.self)
        visitor.rule(UnreachableCodeRule.self)
        visitor.rule(LoopRunsOnceRule.self)
        visitor.rule(UnusedLabelRule.self)
        visitor.rule(AssignmentTooManyValuesRule.self)
        visitor.rule(AssignmentTooFewValuesRule.self)
        visitor.rule(EmptyDoBlockRule.self)
        visitor.rule(EmptyIfBranchRule.self)
        visitor.rule(EmptyStatementRule.self)
        visitor.rule(ReversedNumericLoopRule.self)
        visitor.rule(SimplifiableNegationRule.self)
        visitor.rule(ErrorProneNegationRule.self)
        visitor.rule(WhitespaceOnlyLineRule.self)
        visitor.rule(TrailingWhitespaceRule.self)
        visitor.rule(TrailingWhitespaceInStringRule.self)
        visitor.rule(TrailingWhitespaceInCommentRule.self)
        visitor.rule(InconsistentIndentationRule.self)
        visitor.rule(LineTooLongRule.self)
    }

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
