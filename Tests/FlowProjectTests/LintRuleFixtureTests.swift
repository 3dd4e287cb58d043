import FlowProject
import Foundation
import Testing

@testable import FlowDiagnostics

/// Every lint code's fixture under Tests/Fixtures/invalid/<code>/ gives that code at the places its
/// `expected-places.txt` lists (`Sources/Main.lua:2:1`, a line each) and nothing else (each fixture a
/// few lines a person could have written), and every lint code of the catalogue has a fixture: a new
/// rule's fixture is a folder, with no line here.
@Suite struct LintRuleFixtureTests {
    /// The lint codes: the rules' (generated from their files) and the project-wide checks'.
    static let lintCodes = DiagnosticCodes.lint.map(\.code)

    @Test(arguments: lintCodes)
    func fixtureReportsItsCodeAtItsPlace(code: String) throws {
        let root = ProjectFixtures.url("invalid/\(code)")
        let listed = root.appendingPathComponent("expected-places.txt")
        let places = try #require(
            try? String(contentsOf: listed, encoding: .utf8), "\(code) has no fixture: \(listed.path)"
        ).split(separator: "\n").map(String.init)
        let report = Validator.validate(projectAt: root)
        #expect(!places.isEmpty)
        #expect(report.diagnostics.map(\.code.code) == places.map { _ in code }, "\(report.diagnostics)")
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == places)
        #expect(!report.hasErrors)
    }

    @Test func everyLintCodeHasAFixture() {
        let lintCodes = Set(DiagnosticCodes.byLuacheckNumber.values.map(\.code)).subtracting(["FP405"])
            .union(["FP481", "FP482", "FP483"])
        #expect(Set(Self.lintCodes) == lintCodes)
        for code in Self.lintCodes {
            let listed = ProjectFixtures.url("invalid/\(code)/expected-places.txt")
            #expect(FileManager.default.fileExists(atPath: listed.path), "\(code) has no fixture")
        }
    }
}
