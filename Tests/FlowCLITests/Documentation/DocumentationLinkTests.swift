import Foundation
import Testing

/// README.md and the pages under docs/ that it sends readers to: every page is reachable from
/// the README, every relative link names a file that exists (and a heading that exists, when it
/// names one), and no page holds a Swift block, since Swift examples are compiled snippets.
@Suite struct DocumentationLinkTests {
    static let repository = CLITestFolder.url
        .appendingPathComponent("../..").standardizedFileURL

    /// README.md and every docs/*.md, as paths in the repository.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(
            atPath: repository.appendingPathComponent("docs").path
        ).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(of heading: Substring) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_"
                    ? character : nil
            })
    }

    /// The anchors of a markdown file's headings, outside code blocks.
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var inCode = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            anchors.insert(anchor(of: line.drop { $0 == "#" }.drop { $0 == " " }))
        }
        return anchors
    }

    @Test func everyPageIsReachableAndEveryLinkResolves() throws {
        let pages = try Self.pages()
        #expect(pages.count >= 5)
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        for page in pages.dropFirst() {
            #expect(readme.contains("](\(page))"), "README.md does not link \(page)")
        }
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        var checked = 0
        for page in pages {
            let pageURL = Self.repository.appendingPathComponent(page)
            let text = try String(contentsOf: pageURL, encoding: .utf8)
            #expect(!text.contains("```swift"), "\(page) has a Swift block: make it a snippet under Snippets/")
            for match in text.matches(of: link) {
                let target = String(match.output[1].substring ?? "")
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") {
                    continue
                }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let file = path.isEmpty ? pageURL : pageURL.deletingLastPathComponent().appendingPathComponent(path)
                checked += 1
                guard FileManager.default.fileExists(atPath: file.standardizedFileURL.path) else {
                    Issue.record("\(page) links \(target), which does not exist")
                    continue
                }
                if parts.count == 2 {
                    let headings = Self.anchors(in: try String(contentsOf: file, encoding: .utf8))
                    #expect(headings.contains(String(parts[1])), "\(page) links \(target): no such heading")
                }
            }
        }
        #expect(checked > 20)
    }

    /// docs/diagnostics.md's example is validate's golden output, as the tests record it.
    @Test func theDiagnosticsExampleIsValidatesGoldenOutput() throws {
        let page = try String(
            contentsOf: Self.repository.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        let golden = try String(
            contentsOf: Self.repository.appendingPathComponent("Tests/FlowCLITests/Golden/validate-multiple.txt"),
            encoding: .utf8)
        #expect(page.contains("```\n" + golden + "```\n"), "copy Golden/validate-multiple.txt into docs/diagnostics.md")
    }
}
