import FlowDiagnostics

/// A luacheck warning class flowpkg reports: one file under `Lint/Rules/` each, holding its code
/// in the catalogue, its luacheck number and luacheck's wording, registered in `LintRuleList.all`.
///
/// Adding a rule: its code in FlowDiagnostics' catalogue (and `byLuacheckNumber`), one file there,
/// its fixture under `Tests/Fixtures/invalid/<code>/`, its row in docs/diagnostics.md; the walker
/// that finds it appends the rule's `finding(...)`.
protocol LintClass: Sendable {
    /// The rule's entry in the catalogue.
    static var code: DiagnosticCode { get }
    /// luacheck's number for it: how `.luacheckrc` options and `-- luacheck:` comments name it.
    static var luacheckNumber: Int { get }
    /// luacheck's message for a finding and the name the options' patterns match, or nil when
    /// the options leave the finding out.
    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)?
}

extension LintClass {
    /// A value's fate in the 31x messages: unused, or overwritten on the line `detail` names.
    static func fate(_ finding: LintFinding) -> String {
        finding.detail.isEmpty ? "is unused" : "is overwritten on line \(finding.detail) before use"
    }

    /// A finding of this rule.
    static func finding(line: Int32, column: Int32, name: String = "", detail: String = "") -> LintFinding {
        LintFinding(luacheckNumber, line: line, column: column, name: name, detail: detail)
    }
}

/// The rules, in one list.
enum LintRuleList {
    static let all: [any LintClass.Type] = [
        SettingGlobalRule.self,
        MutatingGlobalRule.self,
        SettingReadOnlyGlobalRule.self,
        SettingReadOnlyFieldRule.self,
        UnusedGlobalRule.self,
        SettingUndefinedFieldRule.self,
        UndefinedFieldRule.self,
        UnusedVariableRule.self,
        UnusedArgumentRule.self,
        UnusedLoopVariableRule.self,
        UsedUnusedHintRule.self,
        VariableNeverSetRule.self,
        VariableNeverAccessedRule.self,
        ArgumentNeverAccessedRule.self,
        LoopVariableNeverAccessedRule.self,
        VariableMutatedNeverAccessedRule.self,
        UnusedValueRule.self,
        UnusedArgumentValueRule.self,
        UnusedLoopValueRule.self,
        FieldOverwrittenRule.self,
        UninitializedAccessRule.self,
        MutatedUnusedValueRule.self,
        UninitializedMutationRule.self,
        RedefinedLocalRule.self,
        RedefinedArgumentRule.self,
        RedefinedLoopVariableRule.self,
        ShadowedLocalRule.self,
        ShadowedArgumentRule.self,
        ShadowedLoopVariableRule.self,
        ShadowedUpvalueRule.self,
        ShadowedUpvalueArgumentRule.self,
        ShadowedUpvalueLoopVariableRule.self,
        UnreachableCodeRule.self,
        LoopRunsOnceRule.self,
        UnusedLabelRule.self,
        AssignmentTooManyValuesRule.self,
        AssignmentTooFewValuesRule.self,
        EmptyDoBlockRule.self,
        EmptyIfBranchRule.self,
        EmptyStatementRule.self,
        ReversedNumericLoopRule.self,
        SimplifiableNegationRule.self,
        ErrorProneNegationRule.self,
        WhitespaceOnlyLineRule.self,
        TrailingWhitespaceRule.self,
        TrailingWhitespaceInStringRule.self,
        TrailingWhitespaceInCommentRule.self,
        InconsistentIndentationRule.self,
        LineTooLongRule.self,
    ]

    /// The rules by their code in the catalogue.
    static let byCode: [DiagnosticCode: any LintClass.Type] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.code, $0) })

    /// The rule a finding's luacheck number names, through the catalogue.
    static func rule(for warning: LuacheckWarning) -> (any LintClass.Type)? {
        DiagnosticCodes.byLuacheckNumber[warning.rawValue].flatMap { byCode[$0] }
    }
}
