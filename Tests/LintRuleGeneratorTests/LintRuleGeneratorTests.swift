import FlowTestSupport
import Foundation
import Testing

/// `LintRuleGenerator` as the `RegisterLintRules` plugin runs it, on rule folders written here: the
/// registry it writes from good files, and the `file:line: error:` that fails the build for bad ones.
@Suite struct LintRuleGeneratorTests {
    static let tool = FlowpkgProcess.executable(named: "LintRuleGenerator")

    /// A rule file as the rules are written, `name` holding `entry` (none when nil).
    static func rule(_ name: String, entry: String?) -> String {
        var text = "import FlowDiagnostics\n\n/// A rule.\nstruct \(name): LintClass {\n"
        if let entry { text += "    static let entry = \(entry)\n" }
        return text + "\n    static func message() -> String { \"(\\(name))\" }\n}\n"
    }

    static func entry(_ code: String, _ number: Int, explanation: String = "What it means.") -> String {
        "LintCatalogueEntry(\n        code: \"\(code)\", luacheck: \(number), title: \"a title\",\n"
            + "        explanation: \(explanation))"
    }

    /// Runs the generator in `mode` on `folder` of `scratch`; its result and what it wrote.
    static func generate(_ mode: String, _ scratch: Scratch, folder: String = "Rules") throws -> (
        FlowpkgProcess.Result, String?
    ) {
        let output = scratch.path("Out.swift")
        let result = try FlowpkgProcess.run([mode, scratch.path(folder).path, output.path], executable: tool)
        return (result, try? String(contentsOf: output, encoding: .utf8))
    }

    @Test func writesTheCatalogueByLuacheckNumberWithEachEntryAsWritten() throws {
        let scratch = try Scratch("lint-generator")
        // A ")" and an escaped quote inside the explanation: the entry ends at its own parenthesis.
        let quoted = #""An \"odd\" one (with parentheses).""#
        try scratch.file("Rules/ZedThingRule.swift", Self.rule("ZedThingRule", entry: Self.entry("FP401", 112)))
        try scratch.file(
            "Rules/AlphaRule.swift", Self.rule("AlphaRule", entry: Self.entry("FP402", 611, explanation: quoted)))
        let (result, source) = try Self.generate("catalogue", scratch)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try #require(source)
        #expect(text.contains("public static let zedThing = DiagnosticCode(\n        \(Self.entry("FP401", 112)))"))
        #expect(
            text.contains(
                "public static let alpha = DiagnosticCode(\n        \(Self.entry("FP402", 611, explanation: quoted)))"))
        #expect(text.contains("static let lintRules: [DiagnosticCode] = [\n        .zedThing,\n        .alpha,\n    ]"))
        #expect(text.contains("[Int: DiagnosticCode] = [\n        112: .zedThing,\n        611: .alpha,\n    ]"))
    }

    @Test func writesEachRulesCodeAndTheListByLuacheckNumber() throws {
        let scratch = try Scratch("lint-generator")
        try scratch.file("Rules/ZedThingRule.swift", Self.rule("ZedThingRule", entry: Self.entry("FP401", 112)))
        try scratch.file("Rules/AlphaRule.swift", Self.rule("AlphaRule", entry: Self.entry("FP402", 611)))
        let (result, source) = try Self.generate("rules", scratch)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try #require(source)
        #expect(
            text.contains(
                "extension ZedThingRule {\n    static var code: DiagnosticCode { .zedThing }\n"
                    + "    static var luacheckNumber: Int { 112 }\n}"))
        #expect(text.contains("        visitor.rule(ZedThingRule.self)\n        visitor.rule(AlphaRule.self)\n    }"))
    }

    @Test func aRuleWithoutAnEntryFailsAtItsDeclaration() throws {
        let scratch = try Scratch("lint-generator")
        try scratch.file("Rules/AlphaRule.swift", Self.rule("AlphaRule", entry: Self.entry("FP402", 611)))
        let bad = try scratch.file("Rules/BareRule.swift", Self.rule("BareRule", entry: nil))
        let (result, source) = try Self.generate("catalogue", scratch)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(bad.path):4: error: BareRule has no catalogue entry: add `static let entry"))
        #expect(source == nil)
    }

    @Test func twoRulesWithOneCodeOrNumberFailAtTheSecond() throws {
        let scratch = try Scratch("lint-generator")
        let first = try scratch.file("Rules/AlphaRule.swift", Self.rule("AlphaRule", entry: Self.entry("FP402", 611)))
        let second = try scratch.file("Rules/BetaRule.swift", Self.rule("BetaRule", entry: Self.entry("FP402", 612)))
        var (result, _) = try Self.generate("rules", scratch)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "\(second.path):5: error: BetaRule has the code FP402 of AlphaRule (\(first.path):5): each rule has its own"
            ))
        try scratch.file("Rules/BetaRule.swift", Self.rule("BetaRule", entry: Self.entry("FP403", 611)))
        (result, _) = try Self.generate("rules", scratch)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(second.path):5: error: BetaRule has the luacheck number 611 of AlphaRule"))
    }

    @Test func aFileWithoutARuleOrMisnamedOrWithAComputedCodeFails() throws {
        let scratch = try Scratch("lint-generator")
        let helper = try scratch.file("Rules/Helper.swift", "import FlowDiagnostics\n\nenum Helper {}\n")
        var (result, _) = try Self.generate("rules", scratch)
        #expect(result.stderr.hasPrefix("\(helper.path):1: error: Helper.swift declares no lint rule"))
        try FileManager.default.removeItem(at: helper)
        let misnamed = try scratch.file("Rules/Other.swift", Self.rule("OtherRule", entry: Self.entry("FP402", 611)))
        (result, _) = try Self.generate("rules", scratch)
        #expect(result.stderr.hasPrefix("\(misnamed.path):4: error: the rule OtherRule is in Other.swift"))
        try FileManager.default.removeItem(at: misnamed)
        let computed = "LintCatalogueEntry(code: prefix + \"402\", luacheck: 611, title: \"t\", explanation: \"e\")"
        let bad = try scratch.file("Rules/AlphaRule.swift", Self.rule("AlphaRule", entry: computed))
        (result, _) = try Self.generate("rules", scratch)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "\(bad.path):5: error: AlphaRule's entry must give its code and luacheck number as literals"))
    }

    @Test func aWrongCommandLineSaysHowToCallIt() throws {
        let result = try FlowpkgProcess.run(["lists"], executable: Self.tool)
        #expect(result.status == 64)
        #expect(result.stderr == "usage: LintRuleGenerator catalogue|rules RULES_DIR OUTPUT.swift\n")
    }
}
