import FlowTestSupport
import Foundation
import Testing

@testable import FlowLanguageServer

/// What no client should send never stops the server: each gets its error response (or is
/// dropped, for a notification), and the next request is answered.
@Suite struct BadInputTests {
    private func isAlive(_ server: ServerConnection, _ file: URL) throws -> Bool {
        let response = try server.request("textDocument/hover", server.position(file, line: 0, character: 0))
        return response["error"] == nil
    }

    private func errorCode(_ response: [String: Any]) -> Int? {
        (response["error"] as? [String: Any])?["code"] as? Int
    }

    @Test func beforeInitializeRequestsAreRefused() throws {
        let server = ServerConnection()
        let response = try server.request("textDocument/hover", [:] as [String: Any])
        #expect(errorCode(response) == -32002)
        _ = server.closeInput()
    }

    @Test func malformedMessagesUnknownMethodsAndBadParams() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")

        server.sendRaw(Array("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ".utf8))
        #expect(errorCode(try server.response(id: nil)) == -32700)
        #expect(try isAlive(server, main))

        server.sendRaw(Array("[1, 2, 3]".utf8))
        #expect(errorCode(try server.response(id: nil)) == -32600)

        // A frame without Content-Length.
        server.sendBytes(Array("Content-Type: text/plain\r\n\r\n".utf8))
        #expect(errorCode(try server.response(id: nil)) == -32700)
        #expect(try isAlive(server, main))

        #expect(errorCode(try server.request("flowpkg/unknown", [:] as [String: Any])) == -32601)
        server.notify("$/unknownNotification", ["x": 1])
        #expect(errorCode(try server.request("textDocument/definition", ["textDocument": 3])) == -32602)
        #expect(try isAlive(server, main))
        _ = server.closeInput()
    }

    @Test func aTenMegabyteDocumentIsNotKeptAndItsSavedContentCounts() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let util = project.url("Sources/app/util.lua")
        let line = "local x = 1 -- " + String(repeating: "y", count: 84) + "\n"
        let big = String(repeating: line, count: (10 << 20) / line.utf8.count)
        server.open(util, big)
        let logged = try server.notification("window/logMessage") {
            ($0["message"] as? String)?.contains("its unsaved text is not checked") == true
        }
        #expect((logged["message"] as? String)?.contains("more than a module may be") == true)
        #expect(try isAlive(server, util))
        #expect(server.server?.documents[util.path] == nil)
        // Typing in it still works and is answered.
        server.change(util, version: 2, [["range": range(0, 0, 0, 0), "text": "-- "]])
        #expect(try isAlive(server, util))
        _ = server.closeInput()
    }

    @Test func aFileOutsideTheProjectGetsAnErrorAndNoDiagnostics() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let outside = try Scratch("outside").path("outside.lua")
        let server = ServerConnection()
        try server.initialize(root: project.root)
        server.open(outside, "pirnt(1)\n")
        let response = try server.request("textDocument/definition", server.position(outside, line: 0, character: 1))
        #expect(errorCode(response) == -32803)
        #expect(
            (response["error"] as? [String: Any])?["message"] as? String
                == "'\(outside.path)' is outside the project at '\(project.root.path)'")
        #expect(
            !server.pendingNotifications.contains {
                ($0["params"] as? [String: Any])?["uri"] as? String == outside.absoluteString
            })
        #expect(try isAlive(server, project.url("Sources/Main.lua")))
        _ = server.closeInput()
    }

    @Test func shutdownThenExitEndsTheServer() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let shutdown = try server.request("shutdown", NSNull())
        #expect(shutdown["error"] == nil)
        #expect(shutdown.keys.contains("result"))
        #expect(errorCode(try server.request("textDocument/hover", [:] as [String: Any])) == -32600)
        server.notify("exit", [:])
        #expect(server.waitForEnd() == .exit(afterShutdown: true))
    }

    @Test func exitWithoutShutdownIsReported() throws {
        let server = ServerConnection()
        server.notify("exit", [:])
        #expect(server.waitForEnd() == .exit(afterShutdown: false))
    }

    @Test func aClientThatDisappearsEndsTheServer() throws {
        let project = try SampleProject()
        defer { project.remove() }
        let server = ServerConnection()
        try server.initialize(root: project.root)
        // Mid-frame: the header promises more than ever comes.
        server.sendBytes(Array("Content-Length: 100\r\n\r\n{\"jsonrpc\"".utf8))
        #expect(server.closeInput() == .endOfInput)
    }
}
