import FlowDiagnostics
import FlowTestSupport
import Foundation
import Testing

/// `flowpkg help TOPIC` for the topics that are not commands, run through the built binary.
@Suite struct HelpTopicTests {
    static let repository = CLITestFolder.url
        .appendingPathComponent("../..").standardizedFileURL

    /// Every `"FPnnn"` literal under Sources/ (the catalogue's): the codes flowpkg can print.
    static func emittedCodes() throws -> Set<Int> {
        var codes: Set<Int> = []
        let sources = repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let pattern = try Regex(#""FP([0-9]{3})""#)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", !file.path.contains("/Help/") else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: pattern) {
                if let number = match.output[1].substring.flatMap({ Int($0) }) { codes.insert(number) }
            }
        }
        return codes
    }

    @Test func codesListsARangeForEveryCodeTheSourcesEmit() throws {
        let result = try FlowpkgProcess.run(["help", "codes"])
        #expect(result.status == 0, "\(result.stderr)")
        // Ranges as the page prints them: `  FP101-FP110  flowpkg.json: ...`.
        let rangePattern = try Regex(#"^  FP([0-9]{3})-FP([0-9]{3})  "#).anchorsMatchLineEndings()
        let ranges = result.stdout.matches(of: rangePattern).compactMap { match -> ClosedRange<Int>? in
            guard let low = match.output[1].substring.flatMap({ Int($0) }),
                let high = match.output[2].substring.flatMap({ Int($0) })
            else { return nil }
            return low...high
        }
        #expect(ranges.count == 10, "\(result.stdout)")
        let emitted = try Self.emittedCodes()
        #expect(emitted.count > 30)
        for code in emitted.sorted() {
            #expect(
                ranges.contains { $0.contains(code) },
                "FP\(code) is emitted but `flowpkg help codes` lists no range for it")
        }
        for range in ranges {
            #expect(
                emitted.contains(range.upperBound),
                "`flowpkg help codes` lists up to FP\(range.upperBound), which nothing emits")
        }
    }

    @Test func codesListsEveryCodeOfTheCatalogueWithItsSeverityAndTitle() throws {
        let result = try FlowpkgProcess.run(["help", "codes"])
        #expect(result.status == 0, "\(result.stderr)")
        // Lines as the page prints them: `  FP101  error    flowpkg.json is not valid JSON`.
        let listed = result.stdout.split(separator: "\n").compactMap { line -> [String]? in
            let words = line.split(separator: " ", maxSplits: 2).map { $0.trimmingCharacters(in: .whitespaces) }
            guard words.count == 3, words[0].wholeMatch(of: /FP[0-9]{3}/) != nil else { return nil }
            return words
        }
        let catalogue = DiagnosticCodes.all.map { [$0.code, $0.severity.rawValue, $0.title] }
        #expect(listed == catalogue, "\(result.stdout)")
    }

    @Test(arguments: [
        ("package", "The .luapkg format", "Sources/FlowPackage/FlowPackage.docc/LuapkgFormat.md"),
        ("updates", "Taking signed updates", "Sources/FlowUpdates/FlowUpdates.docc/TakingSignedUpdates.md"),
        (
            "live", "Live development from a device",
            "Sources/FlowLiveDevelopment/FlowLiveDevelopment.docc/LiveDevelopmentFromADevice.md"
        ),
    ])
    func topicNamesItsArticle(topic: String, title: String, article: String) throws {
        let result = try FlowpkgProcess.run(["help", topic])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"\(title)\""), "\(result.stdout)")
        let text = try String(contentsOf: Self.repository.appendingPathComponent(article), encoding: .utf8)
        #expect(text.hasPrefix("# \(title)\n"), "\(article) is not the article `flowpkg help \(topic)` names")
    }

    @Test func theRootHelpNamesTheTopics() throws {
        let result = try FlowpkgProcess.run(["help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("flowpkg help TOPIC"), "\(result.stdout)")
        for topic in ["codes", "package", "updates", "live"] {
            #expect(result.stdout.contains(topic), "`flowpkg help` does not name the topic \(topic)")
        }
    }
}
