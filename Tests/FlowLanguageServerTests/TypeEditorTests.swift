import Foundation
import Testing

/// Issue 47's editor features over the protocol: hover with ---@param types, signature help
/// with the active parameter, definition of a method from a use, document and workspace
/// symbols, and inlay hints of parameter names (only when the client turns them on).
@Suite struct TypeEditorTests {
    static let util = """
        local Util = {}

        --- Scales a number.
        ---@param n number the number to scale
        ---@param factor? integer how many times (2 by default)
        ---@return number
        function Util.scale(n, factor)
          return n * (factor or 2)
        end

        ---@class Counter
        ---@field count integer
        local Counter = {}

        --- Adds one.
        function Counter:increment()
          self.count = self.count + 1
        end

        Util.Counter = Counter
        return Util

        """

    static let main = """
        local Util = require "Util"
        print(Util.scale(3, 4))
        ---@type Counter
        local counter = Util.Counter
        counter:increment()

        """

    private func start(initializationOptions: [String: Any]? = nil) throws -> (SampleProject, ServerConnection, URL) {
        let project = try SampleProject(environment: "lua")
        try project.write("Sources/Util.lua", Self.util)
        try project.write("Sources/Main.lua", Self.main)
        let server = ServerConnection()
        if let initializationOptions {
            _ = try server.request(
                "initialize",
                [
                    "processId": NSNull(), "rootUri": project.root.absoluteString, "capabilities": [:],
                    "initializationOptions": initializationOptions,
                ])
            server.notify("initialized", [:])
        } else {
            try server.initialize(root: project.root)
        }
        let main = project.url("Sources/Main.lua")
        server.open(main, Self.main)
        return (project, server, main)
    }

    private func result(_ response: [String: Any]) -> [String: Any]? { response["result"] as? [String: Any] }

    @Test func hoverShowsTheAnnotatedTypesAndDoc() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        let hover = try server.request("textDocument/hover", server.position(main, line: 1, character: 12))
        let text = try #require((result(hover)?["contents"] as? [String: Any])?["value"] as? String)
        #expect(text.contains("function Util.scale(n: number, factor?: integer?): number"))
        #expect(text.contains("Scales a number."))
        #expect(text.contains("`factor`: integer? — how many times (2 by default)"))
        #expect(text.contains("Sources/Util.lua:7"))
        _ = server.closeInput()
    }

    @Test func signatureHelpMarksTheActiveParameter() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        let first = try #require(
            result(try server.request("textDocument/signatureHelp", server.position(main, line: 1, character: 17))))
        let signatures = try #require(first["signatures"] as? [[String: Any]])
        #expect(signatures.first?["label"] as? String == "scale(n: number, factor?: integer?): number")
        #expect(first["activeParameter"] as? Int == 0)
        let second = try #require(
            result(try server.request("textDocument/signatureHelp", server.position(main, line: 1, character: 20))))
        #expect(second["activeParameter"] as? Int == 1)
        // Outside any call: nothing.
        let none = try server.request("textDocument/signatureHelp", server.position(main, line: 3, character: 3))
        #expect(none["result"] is NSNull)
        _ = server.closeInput()
    }

    @Test func definitionOfAMethodFromAUse() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        let response = try server.request("textDocument/definition", server.position(main, line: 4, character: 10))
        let locations = try #require(response["result"] as? [[String: Any]])
        #expect(locations.count == 1)
        #expect(locations.first?["uri"] as? String == project.url("Sources/Util.lua").absoluteString)
        let start = ((locations.first?["range"] as? [String: Any])?["start"] as? [String: Any])
        #expect(start?["line"] as? Int == 15)
        _ = server.closeInput()
    }

    @Test func documentAndWorkspaceSymbols() throws {
        let (project, server, _) = try start()
        defer { project.remove() }
        let util = project.url("Sources/Util.lua")
        let document = try server.request("textDocument/documentSymbol", ["textDocument": ["uri": util.absoluteString]])
        let names = (document["result"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains("scale") && names.contains("Counter") && names.contains("increment"))
        let workspace = try server.request("workspace/symbol", ["query": "incr"])
        let found = (workspace["result"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(found == ["increment"])
        _ = server.closeInput()
    }

    @Test func inlayHintsOnlyWhenTurnedOn() throws {
        let (project, server, main) = try start(initializationOptions: ["inlayHints": true])
        defer { project.remove() }
        let hints = try server.request(
            "textDocument/inlayHint", ["textDocument": ["uri": main.absoluteString], "range": range(0, 0, 5, 0)])
        let labels = (hints["result"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        // `require`'s parameter (the standard library's definition), then Util.scale's two.
        #expect(labels == ["modname:", "n:", "factor:"])
        _ = server.closeInput()
    }

    @Test func inlayHintsAreNotAdvertisedByDefault() throws {
        let project = try SampleProject(environment: "lua")
        defer { project.remove() }
        let server = ServerConnection()
        let capabilities = try #require(try server.initialize(root: project.root)["capabilities"] as? [String: Any])
        #expect(capabilities["inlayHintProvider"] == nil)
        #expect(capabilities["signatureHelpProvider"] != nil)
        #expect(capabilities["documentSymbolProvider"] as? Bool == true)
        _ = server.closeInput()
    }
}
