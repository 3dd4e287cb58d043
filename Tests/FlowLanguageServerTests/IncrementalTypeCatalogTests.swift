import Foundation
import Testing

@testable import FlowLanguageServer

/// Issue 47: the project's types are kept between edits and updated from the modules edited
/// since (`SessionTypeCatalog`), so completion stays exact after an edit in another module,
/// and findings are published after the request is answered (`DiagnosticsPublisher`).
@Suite struct IncrementalTypeCatalogTests {
    static let util = """
        local Util = {}

        function Util.double(n) return n * 2 end

        return Util

        """

    static let shape = """
        ---@class Shape
        ---@field width number
        local Shape = {}

        return Shape

        """

    private func labels(_ response: [String: Any]) -> [String] {
        (((response["result"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []).compactMap {
            $0["label"] as? String
        }
    }

    @Test func aFieldAddedInOneModuleIsOfferedInAnotherAfterItsEdit() throws {
        let project = try SampleProject(environment: "lua")
        defer { project.remove() }
        try project.write("Sources/Util.lua", Self.util)
        try project.write("Sources/Shape.lua", Self.shape)
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")
        server.open(main, "local Util = require \"Util\"\n---@type Shape\nlocal s = nil\n\n")
        server.change(main, version: 2, [["range": range(3, 0, 3, 0), "text": "print(Util."]])
        let before = try server.request("textDocument/completion", server.position(main, line: 3, character: 11))
        #expect(labels(before) == ["double"])

        // Module B (Util) gains a function in the editor: module A (Main) is offered it.
        let util = project.url("Sources/Util.lua")
        server.open(util, Self.util)
        server.change(
            util, version: 2, [["range": range(3, 0, 3, 0), "text": "function Util.triple(n) return n * 3 end\n"]])
        server.change(main, version: 3, [["range": range(3, 11, 3, 11), "text": ""]])
        let after = try server.request("textDocument/completion", server.position(main, line: 3, character: 11))
        #expect(labels(after) == ["double", "triple"])

        // While B's text does not parse (a line being typed), its last declarations stay.
        server.change(util, version: 3, [["range": range(4, 0, 4, 0), "text": "function Util.\n"]])
        let typing = try server.request("textDocument/completion", server.position(main, line: 3, character: 11))
        #expect(labels(typing) == ["double", "triple"])

        // A class's field added in a third module is offered too, and a removed one is gone.
        let shape = project.url("Sources/Shape.lua")
        server.open(shape, Self.shape)
        server.change(shape, version: 2, [["range": range(1, 0, 2, 0), "text": "---@field height number\n"]])
        server.change(main, version: 4, [["range": range(3, 0, 3, 11), "text": "print(s."]])
        let fields = try server.request("textDocument/completion", server.position(main, line: 3, character: 8))
        #expect(labels(fields) == ["height"])

        // Closing B without saving: its file's content counts again, so `triple` is gone.
        server.notify("textDocument/didClose", ["textDocument": ["uri": util.absoluteString]])
        server.change(main, version: 5, [["range": range(3, 0, 3, 8), "text": "print(Util."]])
        let closed = try server.request("textDocument/completion", server.position(main, line: 3, character: 11))
        #expect(labels(closed) == ["double"])
        _ = server.closeInput()
    }

    @Test func findingsOfAnEditArePublishedAfterTheRequestThatFollowsIt() throws {
        let project = try SampleProject(environment: "lua")
        defer { project.remove() }
        try project.write("Sources/Util.lua", Self.util)
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")
        server.open(main, "local Util = require \"Util\"\nprint(Util.double(2))\n")
        _ = try server.diagnostics(for: main)
        server.change(main, version: 2, [["range": range(1, 0, 1, 0), "text": "pirnt(1)\n"]])
        let answer = try server.request("textDocument/completion", server.position(main, line: 2, character: 11))
        #expect(answer["result"] != nil)
        // The edit's finding still comes, for the edited version.
        let published = try server.notification("textDocument/publishDiagnostics") {
            ($0["uri"] as? String) == main.absoluteString && ($0["version"] as? Int) == 2
        }
        let messages = (published["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.contains { $0.contains("pirnt") })
        _ = server.closeInput()
    }
}
