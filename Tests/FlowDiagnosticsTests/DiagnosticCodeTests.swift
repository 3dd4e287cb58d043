import FlowDiagnostics
import Foundation
import Testing

/// `Diagnostic.code` is a catalogue entry: written as its text, read back through the catalogue.
@Suite struct DiagnosticCodeTests {
    @Test func aDiagnosticIsWrittenWithItsCodeAsText() throws {
        let diagnostic = Diagnostic(
            severity: .error, code: .unknownRequire, message: "module 'x' not found", file: "a.lua", line: 1, column: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(diagnostic), as: UTF8.self)
        #expect(text.contains(#""code":"FP401""#), "\(text)")
        let back = try JSONDecoder().decode(Diagnostic.self, from: Data(text.utf8))
        #expect(back == diagnostic)
        #expect(back.code == .unknownRequire)
        #expect(back.code.title == DiagnosticCode.unknownRequire.title)
    }

    @Test func aCodeTheCatalogueLacksDoesNotDecode() throws {
        let text = #"{"severity":"error","code":"FP398","message":"m"}"#
        do {
            _ = try JSONDecoder().decode(Diagnostic.self, from: Data(text.utf8))
            Issue.record("FP398 decoded")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains("FP398"))
            #expect(context.codingPath.map(\.stringValue) == ["code"])
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DiagnosticCode.self, from: Data(#""401""#.utf8))
        }
    }

    @Test func everyCodeHasTheAreaOfItsHundred() {
        #expect(DiagnosticCode.invalidProjectJSON.area == .projectFile)
        #expect(DiagnosticCode.linkRefused.area == .projectFile)
        #expect(DiagnosticCode.duplicateModule.area == .modulesAndResources)
        #expect(DiagnosticCode.luaSyntaxError.area == .moduleText)
        #expect(DiagnosticCode.unknownRequire.area == .analysis)
        #expect(DiagnosticCode.lineTooLong.area == .analysis)
        #expect(DiagnosticCode.outputUnwritable.area == .export)
        #expect(DiagnosticCode.packageUnreadable.area == .packages)
        #expect(DiagnosticCode.invalidDependency.area == .dependencies)
        #expect(DiagnosticCode.unknownRequire.number == 401)
        for code in DiagnosticCodes.all {
            #expect(code.code == "FP\(code.number)", "\(code) is not FP and three digits")
            #expect((100...999).contains(code.number))
        }
    }
}
