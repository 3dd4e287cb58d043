import FlowDiagnostics
import FlowProject
import Foundation
import Testing

/// Every lint code's fixture under Tests/Fixtures/invalid/<code>/ gives that code at that place and
/// nothing else (each fixture a few lines a person could have written), and every lint code of the
/// catalogue has a fixture.
@Suite struct LintRuleFixtureTests {
    static let expected: [(code: String, places: [String])] = [
        ("FP409", ["Sources/Main.lua:2:10"]),
        ("FP410", ["Sources/Main.lua:2:1"]),
        ("FP411", ["Sources/Main.lua:2:1"]),
        ("FP412", ["Sources/Main.lua:2:1"]),
        ("FP413", ["Sources/Main.lua:2:1"]),
        ("FP414", ["Sources/Main.lua:2:1"]),
        ("FP415", ["Sources/Main.lua:2:7"]),
        ("FP421", ["Sources/Main.lua:2:7"]),
        ("FP422", ["Sources/Main.lua:2:28"]),
        ("FP423", ["Sources/Main.lua:2:5"]),
        ("FP424", ["Sources/Main.lua:2:23"]),
        ("FP425", ["Sources/Main.lua:2:7"]),
        ("FP426", ["Sources/Main.lua:2:7"]),
        ("FP427", ["Sources/Main.lua:2:22"]),
        ("FP428", ["Sources/Main.lua:2:5"]),
        ("FP429", ["Sources/Main.lua:2:7"]),
        ("FP431", ["Sources/Main.lua:2:7"]),
        ("FP432", ["Sources/Main.lua:2:23"]),
        ("FP433", ["Sources/Main.lua:2:5"]),
        ("FP434", ["Sources/Main.lua:2:17"]),
        ("FP435", ["Sources/Main.lua:3:7"]),
        ("FP436", ["Sources/Main.lua:2:7"]),
        ("FP437", ["Sources/Main.lua:3:1"]),
        ("FP441", ["Sources/Main.lua:4:7"]),
        ("FP442", ["Sources/Main.lua:4:9"]),
        ("FP443", ["Sources/Main.lua:4:9"]),
        ("FP444", ["Sources/Main.lua:4:9"]),
        ("FP445", ["Sources/Main.lua:4:11"]),
        ("FP446", ["Sources/Main.lua:4:11"]),
        ("FP447", ["Sources/Main.lua:4:9"]),
        ("FP448", ["Sources/Main.lua:4:11"]),
        ("FP449", ["Sources/Main.lua:4:11"]),
        ("FP451", ["Sources/Main.lua:4:3"]),
        ("FP452", ["Sources/Main.lua:2:1"]),
        ("FP453", ["Sources/Main.lua:3:3"]),
        ("FP454", ["Sources/Main.lua:2:1"]),
        ("FP455", ["Sources/Main.lua:3:1"]),
        ("FP456", ["Sources/Main.lua:2:1"]),
        ("FP457", ["Sources/Main.lua:3:10"]),
        ("FP458", ["Sources/Main.lua:2:12"]),
        ("FP459", ["Sources/Main.lua:3:1"]),
        ("FP460", ["Sources/Main.lua:3:7"]),
        ("FP461", ["Sources/Main.lua:3:7"]),
        ("FP471", ["Sources/Main.lua:3:1"]),
        ("FP472", ["Sources/Main.lua:2:11"]),
        ("FP473", ["Sources/Main.lua:2:14"]),
        ("FP474", ["Sources/Main.lua:1:49"]),
        ("FP475", ["Sources/Main.lua:3:1"]),
        ("FP476", ["Sources/Main.lua:2:121"]),
        ("FP481", ["Sources/Main.lua:3:14"]),
        ("FP482", ["Sources/Main.lua:3:7"]),
        ("FP483", ["Sources/Main.lua:3:7"]),
    ]

    @Test(arguments: expected.map(\.code))
    func fixtureReportsItsCodeAtItsPlace(code: String) {
        let root = ProjectFixtures.url("invalid/\(code)")
        let report = Validator.validate(projectAt: root)
        let places = Self.expected.first { $0.code == code }!.places
        #expect(report.diagnostics.map(\.code.code) == [code], "\(report.diagnostics)")
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == places)
        #expect(!report.hasErrors)
    }

    @Test func everyLintCodeHasAFixture() {
        let lintCodes = Set(DiagnosticCodes.byLuacheckNumber.values.map(\.code)).subtracting(["FP405"])
            .union(["FP481", "FP482", "FP483"])
        #expect(Set(Self.expected.map(\.code)) == lintCodes)
    }
}
