import Foundation
import Testing

@testable import FlowAnalysis
@testable import FlowDiagnostics

/// A lint rule is one file under `Lint/Rules/`, registered in `LintRuleList.all`: each luacheck
/// class of the catalogue has exactly one, under its own code and number.
@Suite struct LintRuleListTests {
    @Test func everyLuacheckCodeHasOneRuleUnderItsNumber() {
        // 113 (an undefined global) is FP405, a project rule that needs every module's globals.
        let numbered = DiagnosticCodes.byLuacheckNumber.filter { $0.key != 113 }
        #expect(LintRuleList.all.count == numbered.count)
        #expect(LintRuleList.byCode.count == LintRuleList.all.count)
        for (number, code) in numbered {
            let rule = LintRuleList.byCode[code]
            #expect(rule?.luacheckNumber == number, "\(code): \(String(describing: rule))")
            #expect(LintRuleList.rule(for: LuacheckWarning(number))?.code == code)
            #expect(DiagnosticCodes.lint.contains(code), "\(code) is not in the catalogue's lint codes")
        }
    }

    @Test func eachRuleFileHoldsOneRegisteredRule() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/FlowAnalysis/Lint/Rules").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let registered = Set(LintRuleList.all.map { String(describing: $0) + ".swift" })
        #expect(Set(files) == registered)
    }

    @Test func messagesFollowTheOptions() {
        var options = LintOptions()
        let secondary = LintFinding(211, line: 1, column: 1, name: "b", detail: "secondary")
        #expect(LintRules.describe(secondary, options: options)?.0 == "unused variable 'b'")
        options.unusedSecondaries = false
        #expect(LintRules.describe(secondary, options: options) == nil)
        let long = LintFinding(631, line: 1, column: 0, name: "130", detail: "code")
        #expect(LintRules.describe(long, options: LintOptions())?.0 == "line is too long (130 > 120)")
        #expect(LintRules.describe(LintFinding(999, line: 1, column: 1), options: options) == nil)
    }
}
