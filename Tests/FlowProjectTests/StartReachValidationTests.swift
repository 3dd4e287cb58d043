import FlowDiagnostics
import FlowProject
import Foundation
import Testing

/// validate, export and the editor's session grade findings by what loads at start through
/// one code path: the session reports exactly what validate reports.
@Suite struct StartReachValidationTests {
    @Test(arguments: ["FP301", "FP301-not-at-start", "FP403", "FP404", "FP407", "FP408"])
    func theEditorSessionGradesAsValidateDoes(code: String) {
        let root = ProjectFixtures.url("invalid/\(code)")
        let validated = Validator.validate(projectAt: root).diagnostics
        #expect(validated.contains { code.hasPrefix($0.code.code) }, "\(validated)")
        let session = ValidationSession(projectAt: root).diagnosticsByFile().values.flatMap { $0 }
        #expect(session.sorted(by: ValidationReport.precedes) == validated)
    }
}
