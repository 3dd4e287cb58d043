import Foundation
import Testing

@testable import FlowLanguageServer

/// Document sync and diagnostics over the protocol: validate's findings for open buffers and
/// files on disk, with severity, code and hint, suppressions, and cleared once fixed.
@Suite struct DiagnosticsTests {
    @Test func undefinedGlobalInABufferIsReportedThenClearedByAnIncrementalEdit() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        let result = try server.initialize(root: project.root)
        let capabilities = try #require(result["capabilities"] as? [String: Any])
        #expect(capabilities["positionEncoding"] as? String == "utf-16")

        let main = project.url("Sources/Main.lua")
        let text = SampleProject.main + "pirnt(1)\n"
        server.open(main, text)
        let found = try server.diagnostics(for: main) { !$0.isEmpty }
        #expect(found.count == 1)
        let diagnostic = try #require(found.first)
        #expect(diagnostic["code"] as? String == "FP405")
        #expect(diagnostic["severity"] as? Int == 2)
        #expect(diagnostic["source"] as? String == "flowpkg")
        #expect((diagnostic["message"] as? String)?.contains("'pirnt' is not defined") == true)
        #expect((diagnostic["message"] as? String)?.contains("hint: did you mean 'print'?") == true)
        #expect((diagnostic["data"] as? [String: String])?["hint"] == "did you mean 'print'?")
        let expected = range(3, 0, 3, 5)
        #expect(
            NSDictionary(dictionary: diagnostic["range"] as? [String: Any] ?? [:]) == NSDictionary(dictionary: expected)
        )

        // Replace "ir" with "ri": print(1).
        server.change(main, version: 2, [["range": range(3, 1, 3, 3), "text": "ri"]])
        let cleared = try server.diagnostics(for: main)
        #expect(cleared.isEmpty)
        #expect(server.closeInput() == .endOfInput)
    }

    @Test func fullSyncSyntaxErrorIsAnErrorWithItsHint() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let util = project.url("Sources/app/util.lua")
        server.open(util, "local M = {}\nreturn M\n")
        server.change(util, version: 2, [["text": "local M = {\nreturn M\n"]])
        let found = try server.diagnostics(for: util) { !$0.isEmpty }
        let diagnostic = try #require(found.first)
        #expect(diagnostic["code"] as? String == "FP301")
        #expect(diagnostic["severity"] as? Int == 1)
        // The whole text again, fixed: cleared.
        server.change(util, version: 3, [["text": "local M = {}\n_G.helperValue = 1\nreturn M\n"]])
        #expect(try server.diagnostics(for: util).isEmpty)
        _ = server.closeInput()
    }

    @Test func suppressionCommentsOfTheUnsavedBufferAreHonoured() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")
        server.open(main, SampleProject.main + "pirnt(1)\nprnit(2)\n")
        #expect(try server.diagnostics(for: main) { $0.count == 2 }.count == 2)
        // The comment exists only in the buffer, not on disk.
        server.change(main, version: 2, [["range": range(3, 8, 3, 8), "text": " -- flowpkg: ignore FP405"]])
        let left = try server.diagnostics(for: main) { $0.count == 1 }
        #expect((left.first?["message"] as? String)?.contains("'prnit'") == true)
        _ = server.closeInput()
    }

    @Test func filesOnDiskAreReportedAtStartAndAnEditElsewhereUpdatesThem() throws {
        let project = try SampleProject()
        defer { project.remove() }
        // On disk only: a module with an unknown require at top level, and one reading the
        // global util.lua defines.
        try project.write("Sources/broken.lua", "local x = require \"nowhere\"\nreturn x\n")
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let broken = try server.diagnostics(for: project.url("Sources/broken.lua")) { !$0.isEmpty }
        // No module the program starts with requires broken.lua, but its top-level require fails
        // whenever it loads: an error (FP401), as validate has it (issue 34).
        #expect(broken.first?["code"] as? String == "FP401")
        #expect(broken.first?["severity"] as? Int == 1)

        // util.lua's buffer stops defining helperValue: Main.lua, which is not open, is told.
        let util = project.url("Sources/app/util.lua")
        server.open(util, "local M = {}\nfunction M.greet(s) return s end\nreturn M\n")
        let main = try server.diagnostics(for: project.url("Sources/Main.lua")) { !$0.isEmpty }
        #expect(main.first?["code"] as? String == "FP405")
        #expect((main.first?["message"] as? String)?.contains("'helperValue'") == true)
        // Closing the buffer: the file on disk counts again, and the finding goes.
        server.notify("textDocument/didClose", ["textDocument": ["uri": util.absoluteString]])
        #expect(try server.diagnostics(for: project.url("Sources/Main.lua")).isEmpty)
        _ = server.closeInput()
    }

    @Test func filesChangedOnDiskAreCheckedWhenTheClientSaysSo() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root, watchesFiles: true)
        let registration = try server.notification("client/registerCapability")
        let watchers = (registration["registrations"] as? [[String: Any]])?.first?["registerOptions"] as? [String: Any]
        #expect(
            (watchers?["watchers"] as? [[String: Any]])?.contains { $0["globPattern"] as? String == "**/*.lua" } == true
        )

        let util = project.url("Sources/app/util.lua")
        try project.write("Sources/app/util.lua", "return {\n")
        server.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": util.absoluteString, "type": 2]]])
        #expect(try server.diagnostics(for: util) { !$0.isEmpty }.first?["code"] as? String == "FP301")

        let fresh = project.url("Sources/fresh.lua")
        try project.write("Sources/fresh.lua", "prnit(1)\n")
        server.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": fresh.absoluteString, "type": 1]]])
        #expect(try server.diagnostics(for: fresh) { !$0.isEmpty }.first?["code"] as? String == "FP405")
        _ = server.closeInput()
    }

    @Test func positionsAreUTF16UnlessTheClientTakesUTF8() throws {
        let line = "local s = \"é😀\" pirnt(s)"
        let column = line.utf8.count - "pirnt(s)".utf8.count
        let utf16Column = line.utf16.count - "pirnt(s)".utf16.count
        #expect(column != utf16Column)
        for (encodings, expected) in [(nil as [String]?, utf16Column), (["utf-8", "utf-16"], column)] {
            let project = try SampleProject()
            defer { project.remove() }
            let server = ServerConnection()
            let result = try server.initialize(root: project.root, encodings: encodings)
            let capabilities = try #require(result["capabilities"] as? [String: Any])
            #expect(capabilities["positionEncoding"] as? String == (encodings == nil ? "utf-16" : "utf-8"))
            let main = project.url("Sources/Main.lua")
            server.open(main, SampleProject.main + line + "\n")
            let found = try server.diagnostics(for: main) { !$0.isEmpty }
            let start = (found.first?["range"] as? [String: Any])?["start"] as? [String: Any]
            #expect(start?["line"] as? Int == 3)
            #expect(start?["character"] as? Int == expected)
            // An incremental edit in the same encoding: the typo's "ir" becomes "ri".
            server.change(main, version: 2, [["range": range(3, expected + 1, 3, expected + 3), "text": "ri"]])
            #expect(try server.diagnostics(for: main).isEmpty)
            _ = server.closeInput()
        }
    }
}
