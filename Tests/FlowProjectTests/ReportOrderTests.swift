import FlowDiagnostics
import Testing

@testable import FlowProject

/// `ReportOrder.sorted` (validate's one sort of every finding) gives exactly the order of
/// `sort(by: ValidationReport.precedes)`, equal findings included.
@Suite struct ReportOrderTests {
    func finding(_ file: String?, _ line: Int?, _ column: Int?, _ code: DiagnosticCode, _ message: String)
        -> Diagnostic
    {
        Diagnostic(severity: code.severity, code: code, message: message, file: file, line: line, column: column)
    }

    @Test func sortsAsTheReportOrderDoes() {
        let codes: [DiagnosticCode] = [.undefinedGlobal, .unknownRequire, .tooManyArguments, .unknownModuleField]
        let files: [String?] = [nil, "/p/Sources/b.lua", "/p/Sources/a.lua", "/p/Sources/B.lua", "/p/Sources/a/z.lua"]
        var findings: [Diagnostic] = []
        var seed: UInt64 = 12_345
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for index in 0..<2_000 {
            let file = files[next(files.count)]
            let line: Int? = next(10) == 0 ? nil : next(40)
            let column: Int? = next(10) == 0 ? nil : next(5)
            // Messages repeat, so some findings are equal in everything the order looks at;
            // the hint tells them apart and shows whether their order is kept.
            var item = finding(file, line, column, codes[next(codes.count)], "m\(next(3))")
            item.hint = "\(index)"
            findings.append(item)
        }
        let expected = findings.sorted(by: ValidationReport.precedes)
        #expect(ReportOrder.sorted(findings) == expected)
        #expect(ReportOrder.sorted(expected) == expected)
        #expect(ReportOrder.sorted([]) == [])
    }
}
