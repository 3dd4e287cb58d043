import FlowProject
import Testing

/// FP401–FP406 through the real validator: its project model, compile step and static analysis.
@Suite struct AnalysisValidationTests {
    static let expected: [(code: String, places: [String])] = [
        ("FP401", ["Sources/Main.lua:3:14"]),
        ("FP402", ["Sources/Main.lua:5:16", "Sources/Main.lua:9:33"]),
        ("FP403", ["Sources/A.lua:2:11"]),
        ("FP404", ["Sources/Main.lua:3:16"]),
        ("FP405", ["Sources/Main.lua:3:1"]),
        ("FP406", ["Resources/notes.txt"]),
    ]

    @Test(arguments: expected.map(\.code))
    func validatorReportsTheCodeAtItsPlace(code: String) {
        let root = ProjectFixtures.url("invalid/\(code)")
        let report = Validator.validate(projectAt: root)
        let places = Self.expected.first { $0.code == code }!.places
        #expect(
            report.diagnostics.map(\.code.code) == Array(repeating: code, count: places.count), "\(report.diagnostics)")
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == places)
        #expect(report.hasErrors == ["FP401", "FP403", "FP404"].contains(code))
    }

    @Test func codeFlowEnvironmentFromTheProjectFile() {
        let report = Validator.validate(projectAt: ProjectFixtures.url("analysis/codeflow"))
        #expect(report.diagnostics == [])
    }
}
