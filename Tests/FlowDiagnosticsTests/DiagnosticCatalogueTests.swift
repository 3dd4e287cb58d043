import FlowDiagnostics
import Foundation
import Testing

/// The catalogue of FP codes against the table in docs/diagnostics.md and the sources that use it.
@Suite struct DiagnosticCatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One row of docs/diagnostics.md's tables: `| FP101 | error | flowpkg.json is not valid JSON |`.
    struct Row: Equatable, CustomStringConvertible {
        var code: String
        var severity: String
        var title: String
        var description: String { "| \(code) | \(severity) | \(title) |" }
    }

    /// Every table row of docs/diagnostics.md that starts with a code, in the page's order.
    static func documentedRows() throws -> [Row] {
        let page = try String(contentsOf: root.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        return page.split(separator: "\n").filter { $0.hasPrefix("| FP") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return Row(
                code: cells.first ?? "", severity: cells.count > 1 ? cells[1] : "",
                title: cells.count > 2 ? cells[2] : "")
        }
    }

    @Test func docsTableListsExactlyTheCatalogue() throws {
        let documented = try Self.documentedRows()
        #expect(documented.count > 40)
        let catalogue = DiagnosticCodes.all.map { Row(code: $0.code, severity: $0.severity.rawValue, title: $0.title) }
        let missing = catalogue.filter { !documented.contains($0) }
        let extra = documented.filter { !catalogue.contains($0) }
        #expect(missing == [], "in the catalogue but not in docs/diagnostics.md (or with another severity or title)")
        #expect(extra == [], "in docs/diagnostics.md but not in the catalogue (or with another severity or title)")
        #expect(documented.map(\.code) == catalogue.map(\.code), "docs/diagnostics.md lists the codes out of order")
    }

    /// The README sends readers to the table.
    @Test func readmeLinksTheTable() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("](docs/diagnostics.md)"))
    }

    @Test func eachCodeIsOnceWithATitleAndAnExplanation() {
        let codes = DiagnosticCodes.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes == codes.sorted())
        for entry in DiagnosticCodes.all {
            #expect(entry.code.wholeMatch(of: /FP[1-9][0-9][0-9]/) != nil, "\(entry.code)")
            #expect(!entry.title.isEmpty && !entry.explanation.isEmpty, "\(entry.code)")
            #expect(DiagnosticCodes.entry(for: entry.code) == entry)
            #expect(DiagnosticCodes.explanation(of: entry.code) == entry.explanation)
        }
        #expect(DiagnosticCode.undefinedGlobal.severity == .warning)
        #expect(DiagnosticCode.unknownRequire.severity == .error)
        #expect(DiagnosticCodes.entry(for: "FP999") == nil)
    }

    /// Rules name the catalogue's entries: no source outside FlowDiagnostics spells a code as a
    /// string literal of its own (comments, messages and hints that mention one are fine), but a lint
    /// rule's file, whose `LintCatalogueEntry` is its entry in the catalogue (generated from it).
    @Test func noRuleSpellsACodeAsAStringLiteral() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
        var offenders: [String] = []
        // `flowpkg help` pages are prose whose examples quote codes as a user writes them.
        for case let path as String in files
        where path.hasSuffix(".swift") && !path.hasPrefix("FlowDiagnostics/") && !path.hasPrefix("FlowCLI/Help/") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                if path.hasPrefix("FlowAnalysis/Lint/Rules/"), code.hasPrefix("code: \"FP"),
                    code.contains(", luacheck: ")
                {
                    continue
                }
                // `\"FP405\"` inside a message or hint is text, not a code.
                if line.contains(/(^|[^\\])"FP[0-9]{3}"/) { offenders.append("\(path):\(number + 1)") }
            }
        }
        #expect(offenders == [])
    }
}
