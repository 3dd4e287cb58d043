import Foundation
import Testing

@testable import FlowLiveServer

/// The session page's script and style live in `Sources/FlowLiveServer/Page/`, compiled in:
/// the scripts as served pass `node --check`, every placeholder is filled, and the page
/// carries exactly them.
@Suite struct PageFilesTests {
    /// `node --check` on `script` written to a file: its exit status and what it said.
    func nodeCheck(_ script: String) throws -> (Int32, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowpkg-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("page.js")
        try Data(script.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["node", "--check", file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said)
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
}
