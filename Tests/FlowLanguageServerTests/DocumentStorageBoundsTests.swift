import FlowTestSupport
import Foundation
import ContentLengthFraming
import LanguageServerProtocol
import Testing

@testable import FlowLanguageServer

/// What an editor can make `flowpkg lsp` keep or redo is bounded (issue 38), counted in bytes
/// and messages, never timed.
@Suite struct DocumentStorageBoundsTests {
    private func isAlive(_ server: ServerConnection, _ file: URL) throws -> Bool {
        try server.request("textDocument/hover", server.position(file, line: 0, character: 0))["error"] == nil
    }

    @Test func aFileOutsideTheProjectKeepsNoText() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let outside = try Scratch("outside").path("outside.lua")
        server.open(outside, String(repeating: "x = 1\n", count: 100_000))
        server.change(outside, version: 2, [["text": String(repeating: "y = 2\n", count: 100_000)]])
        #expect(try isAlive(server, project.url("Sources/Main.lua")))
        #expect(server.server?.documents[outside.path] == nil)
        let main = project.url("Sources/Main.lua")
        server.open(main, SampleProject.main)
        #expect(try isAlive(server, main))
        #expect(server.server?.documents[main.path] != nil)
        _ = server.closeInput()
    }

    @Test func allBuffersTogetherStayWithinTheirBudget() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let budget = try #require(server.server?.limits.maximumTotalBytes)
        let text = "local x = 1 -- " + String(repeating: "z", count: (7 << 20) - 20) + "\n"
        var opened: [URL] = []
        for index in 0..<12 {
            // Unsaved new files: only their text is at stake (saved, each would be validated).
            let file = project.url("Sources/big\(index).lua")
            server.open(file, text)
            opened.append(file)
        }
        #expect(try isAlive(server, project.url("Sources/Main.lua")))
        let kept = server.server?.documents.values.reduce(0) { $0 + $1.text.bytes.count } ?? .max
        #expect(kept <= budget)
        #expect(server.server?.documents.count ?? 0 < opened.count)
        _ = server.closeInput()
    }

    /// 200 edits in one burst are checked about once, not 200 times: each would re-run the
    /// project rules (130 ms with 64k modules).
    @Test func aBurstOfEditsIsCheckedOnce() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let util = project.url("Sources/app/util.lua")
        server.open(util, "local M = {}\nreturn M\n")
        _ = try server.diagnostics(for: util)
        var burst: [UInt8] = []
        for version in 2..<202 {
            let body = try JSONSerialization.data(withJSONObject: [
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": [
                    "textDocument": ["uri": util.absoluteString, "version": version],
                    "contentChanges": [["text": "print(undefined\(version))\n"]],
                ],
            ])
            burst += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + [UInt8](body)
        }
        server.sendBytes(burst)
        // The last edit's finding arrives; count what came for the file before it.
        _ = try server.diagnostics(for: util) { list in
            list.contains { ($0["message"] as? String)?.contains("undefined201") == true }
        }
        let published = server.pendingNotifications.filter {
            $0["method"] as? String == "textDocument/publishDiagnostics"
                && ($0["params"] as? [String: Any])?["uri"] as? String == util.absoluteString
        }
        #expect(published.count < 20, "\(published.count) publications for 200 edits")
        _ = server.closeInput()
    }

    /// After a frame whose Content-Length is too short, the next frame is read as it was sent.
    @Test func readingResynchronisesAfterAShortContentLength() throws {
        let pipe = Pipe()
        let reader = MessageReader(descriptor: pipe.fileHandleForReading.fileDescriptor)
        let first = #"{"jsonrpc":"2.0","method":"a","params":{"x":1}}"#
        let second = #"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#
        let third = #"{"jsonrpc":"2.0","id":8,"method":"shutdown"}"#
        var bytes = Array("Content-Length: 10\r\n\r\n\(first)".utf8)
        bytes += Array("Content-Length: \(second.utf8.count)\r\n\r\n\(second)".utf8)
        bytes += Array("Content-Length: \(third.utf8.count)\r\nContent-Type: x\r\n\r\n\(third)".utf8)
        pipe.fileHandleForWriting.write(Data(bytes))
        try pipe.fileHandleForWriting.close()
        #expect(reader.next() == .message(Array(first.utf8.prefix(10))))
        #expect(reader.next() == .message(Array(second.utf8)))
        #expect(reader.next() == .message(Array(third.utf8)))
        #expect(reader.next() == .endOfInput)
    }
}
