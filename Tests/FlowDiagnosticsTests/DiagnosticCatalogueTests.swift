import FlowDiagnostics
import Foundation
import Testing

/// The catalogue of FP codes against the README's table and the sources that use it.
@Suite struct DiagnosticCatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The codes the README's table lists, each row a range such as `FP101–FP110`.
    static func readmeCodes() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var codes: [String] = []
        for line in readme.split(separator: "\n") where line.hasPrefix("| FP") {
            let range = line.dropFirst(2).prefix { $0 != " " }
            let ends = range.split(separator: "–").map { Int($0.dropFirst(2))! }
            for number in ends[0]...(ends.count == 2 ? ends[1] : ends[0]) { codes.append("FP\(number)") }
        }
        return codes
    }

    @Test func readmeTableListsExactlyTheCatalogue() throws {
        let readme = try Self.readmeCodes()
        #expect(readme.count > 40)
        let catalogue = DiagnosticCodes.all.map(\.code)
        #expect(Set(readme).subtracting(catalogue).sorted() == [], "in the README but not in the catalogue")
        #expect(Set(catalogue).subtracting(readme).sorted() == [], "in the catalogue but not in the README")
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
    /// string literal of its own (comments, messages and hints that mention one are fine).
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
                // `\"FP405\"` inside a message or hint is text, not a code.
                if line.contains(/(^|[^\\])"FP[0-9]{3}"/) { offenders.append("\(path):\(number + 1)") }
            }
        }
        #expect(offenders == [])
    }
}
