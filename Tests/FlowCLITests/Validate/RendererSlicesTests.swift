import FlowDiagnostics
import Testing

@testable import FlowCLI

/// Thousands of findings are rendered in slices at once (`DiagnosticRenderer.texts`): the text is
/// the same as rendering them one after another, every line once and in order.
@Suite struct RendererSlicesTests {
    @Test func slicedTextIsTheSameAsOneByOne() {
        let renderer = DiagnosticRenderer(format: .text, workingDirectory: "/p")
        for count in [0, 1, 2_047, 2_048, 5_003] {
            let diagnostics = (0..<count).map { index in
                Diagnostic(
                    severity: index % 3 == 0 ? .error : .warning, code: .undefinedGlobal,
                    message: "finding \(index)", file: "/p/Sources/m\(index % 17).lua", line: index + 1, column: 1)
            }
            let expected = diagnostics.map { renderer.text($0) + "\n" }.joined()
            #expect(renderer.texts(diagnostics) == expected, "findings: \(count)")
            let summary = DiagnosticSummary(errors: 0, warnings: count, modules: 1, resources: 0)
            #expect(renderer.render(diagnostics, summary: summary) == expected + renderer.summaryLine(summary) + "\n")
        }
    }
}
