import FlowTestSupport
import Foundation
import Testing

@testable import FlowLiveServer

/// The session page's script and style live in `Sources/FlowLiveServer/Page/`, compiled in:
/// the scripts as served pass `node --check`, every placeholder is filled, and the page
/// carries exactly them.
@Suite struct PageFilesTests {
    /// `node --check` on `script` written to a file: its exit status and what it said.
    func nodeCheck(_ script: String) throws -> (Int32, String) {
        let scratch = try Scratch("page")
        defer { scratch.remove() }
        let file = try scratch.file("page.js", script)
        let result = try FlowpkgProcess.run(
            ["node", "--check", file.path], executable: URL(fileURLWithPath: "/usr/bin/env"))
        return (result.status, result.stderr)
    }

    @Test func theScriptsAsServedAreValidJavaScript() throws {
        for script in [SessionPageScript.source, SessionPage.consoleScript] {
            let (status, said) = try nodeCheck(script)
            #expect(status == 0, "\(said)")
            #expect(!script.contains("{{"))
            #expect(!script.hasSuffix("\n"))
        }
        // A syntax error is caught: the check is real.
        #expect(try nodeCheck(SessionPageScript.source + "\n}").0 != 0)
    }

    @Test func placeholdersAreTheProtocolsPaths() {
        #expect(SessionPageScript.source.contains("fetch(\"/v1/session\""))
        #expect(SessionPageScript.source.contains("fetch(\"/v1/module?name=\""))
        #expect(SessionPage.consoleScript.contains("fetch(\"/v1/debug/evaluate\" + query"))
        #expect(SessionPageStyle.css.contains("{") && !SessionPageStyle.css.contains("{{"))
    }

    @Test func thePageCarriesTheFilesAndTheirHashes() {
        let state = SessionState(
            project: .init(name: "App", identifier: "com.example.app", revision: 1), diagnostics: [], programs: [])
        let html = SessionPage.html(snapshot: state)
        #expect(html.contains("<script>" + SessionPageScript.source + "</script>"))
        #expect(html.contains("<script>" + SessionPage.consoleScript + "</script>"))
        #expect(html.contains("<style>" + SessionPageStyle.css + "</style>"))
    }

    /// The page's markup is in `Page/session.html` and `Page/snapshot.html`, not in Swift
    /// strings (issue 43): no Swift file of FlowLiveServer holds an HTML tag.
    @Test func noSwiftFileOfTheServerHoldsMarkup() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/FlowLiveServer").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.contains("SessionPageSnapshot.swift"))
        let tag = try Regex(
            #"<(!DOCTYPE|html|head|body|meta|title|style|script|header|main|section|div|span|p|a|h[1-6]|pre|code|table|tr|td|th|details|summary|form|input|button|label|noscript)[\s>/]"#
        )
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(text.firstMatch(of: tag) == nil, "\(file) holds markup")
        }
    }

    /// Every template the snapshot fills is in `Page/snapshot.html`, and the page's placeholders
    /// are all filled.
    @Test func theSnapshotsTemplatesAreAllThere() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/FlowLiveServer/SessionPageSnapshot.swift").standardizedFileURL
        let text = try String(contentsOf: sources, encoding: .utf8)
        let used = Set(
            text.matches(of: try Regex(#"fragment\(\s*"([a-z-]+)""#)).compactMap { $0[1].substring }.map(String.init))
        #expect(used.count >= 10)
        for id in used { #expect(PageFiles.fragments[id] != nil, "\(id)") }
        let state = SessionState(
            project: .init(name: "App <b>", identifier: "com.example.app", revision: 1), diagnostics: [], programs: [])
        let html = SessionPage.html(snapshot: state)
        #expect(!html.contains("{{"))
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>"))
        #expect(html.contains("App &lt;b&gt; (com.example.app) revision 1"))
        #expect(html.contains("<p class=\"empty\">No problems.</p>"))
    }
}
