import FlowTestSupport
import Foundation
import Testing

@testable import FlowAnalysis
@testable import FlowDiagnostics

/// The registry the build generates from the rule files (`LintRuleGenerator`): each rule's code is its
/// file's entry, and a rule file without one fails the build.
@Suite struct LintRuleRegistryTests {
    static let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/FlowAnalysis/Lint/Rules").standardized

    @Test func eachRulesCatalogueEntryIsItsFilesEntry() {
        for rule in LintRuleList.all {
            let entry: LintCatalogueEntry = rule.entry
            let code: DiagnosticCode = rule.code
            let number: Int = rule.luacheckNumber
            let name = String(describing: rule)
            #expect(code.code == entry.code, "\(name)")
            #expect(number == entry.luacheck, "\(name)")
            #expect(code.title == "\(entry.title) (luacheck \(entry.luacheck))")
            #expect(code.explanation == entry.explanation)
            #expect(code.severity == .warning)
            #expect(DiagnosticCodes.entry(for: entry.code) == code)
        }
        let numbers = LintRuleList.all.map { rule -> Int in rule.luacheckNumber }
        #expect(numbers == numbers.sorted())
    }

    @Test func aRuleFileWithoutAnEntryFailsTheGenerator() throws {
        let scratch = try Scratch("lint-rules")
        let folder = scratch.path("Rules")
        try FileManager.default.copyItem(at: Self.rules, to: folder)
        let bad = try scratch.file(
            "Rules/UnlistedRule.swift",
            "import FlowDiagnostics\n\nstruct UnlistedRule: LintClass {\n    static let code = DiagnosticCode.emptyDoBlock\n}\n"
        )
        let output = scratch.path("LintRuleRegistry.swift")
        let tool = FlowpkgProcess.executable(named: "LintRuleGenerator")
        var result = try FlowpkgProcess.run(["rules", folder.path, output.path], executable: tool)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(bad.path):3: error: UnlistedRule has no catalogue entry"))
        // Without it, the copy gives the list compiled in, in its order.
        try FileManager.default.removeItem(at: bad)
        result = try FlowpkgProcess.run(["rules", folder.path, output.path], executable: tool)
        #expect(result.status == 0, "\(result.stderr)")
        let listed = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("        visitor.rule(") }.map(String.init)
        #expect(listed == LintRuleList.all.map { "        visitor.rule(\($0).self)" })
    }
}
