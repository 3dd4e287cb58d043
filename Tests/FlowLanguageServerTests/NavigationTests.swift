import Foundation
import Testing

@testable import FlowLanguageServer

/// Go to definition, completion and hover over the protocol.
@Suite struct NavigationTests {
    private func start() throws -> (SampleProject, ServerConnection, URL) {
        let project = try SampleProject()
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")
        server.open(main, SampleProject.main)
        return (project, server, main)
    }

    private func locations(_ response: [String: Any]) -> [(uri: String, line: Int, character: Int)] {
        (response["result"] as? [[String: Any]] ?? []).map { location in
            let start = (location["range"] as? [String: Any])?["start"] as? [String: Any]
            return (location["uri"] as? String ?? "", start?["line"] as? Int ?? -1, start?["character"] as? Int ?? -1)
        }
    }

    @Test func definitionOfARequireAResourceAndAGlobal() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        // `local util = require "app.util"`: the cursor inside the string.
        let module = locations(
            try server.request("textDocument/definition", server.position(main, line: 0, character: 25)))
        #expect(module.map(\.uri) == [project.url("Sources/app/util.lua").absoluteString])
        // `getResource("img/logo", "png")`, on the name and on the type.
        for character in [28, 39] {
            let resource = locations(
                try server.request("textDocument/definition", server.position(main, line: 1, character: character)))
            #expect(resource.map(\.uri) == [project.url("Resources/img/logo.png").absoluteString])
        }
        // `helperValue`, a global util.lua defines on its line 2 (`_G.helperValue = 42`).
        let global = locations(
            try server.request("textDocument/definition", server.position(main, line: 2, character: 25)))
        #expect(global.count == 1)
        #expect(global.first?.uri == project.url("Sources/app/util.lua").absoluteString)
        #expect(global.first?.line == 1)
        #expect(global.first?.character == 3)
        // A field, `util.greet`: not a global, the function util.lua defines on its line 3.
        let field = locations(
            try server.request("textDocument/definition", server.position(main, line: 2, character: 12)))
        #expect(field.map(\.uri) == [project.url("Sources/app/util.lua").absoluteString])
        #expect(field.first?.line == 2)
        #expect(field.first?.character == 11)
        _ = server.closeInput()
    }

    private func labels(_ response: [String: Any]) -> [String] {
        ((response["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap {
            $0["label"] as? String
        }
    }

    @Test func completionOfModulesResourcesTypesAndGlobals() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        try project.write("Sources/app/extra.lua", "return {}\n")
        server.notify(
            "workspace/didChangeWatchedFiles",
            ["changes": [["uri": project.url("Sources/app/extra.lua").absoluteString, "type": 1]]])
        server.change(main, version: 2, [["range": range(3, 0, 3, 0), "text": "local e = require \"app.e"]])
        let modules = try server.request("textDocument/completion", server.position(main, line: 3, character: 24))
        #expect(labels(modules) == ["app.extra"])
        let item = try #require(((modules["result"] as? [String: Any])?["items"] as? [[String: Any]])?.first)
        let edit = try #require(item["textEdit"] as? [String: Any])
        #expect(edit["newText"] as? String == "app.extra")
        #expect(
            NSDictionary(dictionary: edit["range"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: range(3, 19, 3, 24)))

        server.change(main, version: 3, [["range": range(3, 0, 3, 24), "text": "getResource(\"im"]])
        let names = try server.request("textDocument/completion", server.position(main, line: 3, character: 15))
        #expect(labels(names) == ["img/logo"])
        server.change(main, version: 4, [["range": range(3, 15, 3, 15), "text": "g/logo\", \""]])
        let types = try server.request("textDocument/completion", server.position(main, line: 3, character: 25))
        #expect(labels(types) == ["png"])

        server.change(main, version: 5, [["range": range(3, 0, 3, 26), "text": "hel"]])
        let globals = labels(
            try server.request("textDocument/completion", server.position(main, line: 3, character: 3)))
        #expect(globals.contains("helperValue"))  // assigned by app.util
        #expect(globals.contains("objc"))  // the codeflow-ios environment's
        #expect(globals.contains("print"))  // Lua's
        _ = server.closeInput()
    }

    private func hoverText(_ response: [String: Any]) -> String? {
        ((response["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
    }

    @Test func hoverOnAModuleAResourceAndACode() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        let module = hoverText(try server.request("textDocument/hover", server.position(main, line: 0, character: 25)))
        let utilSize =
            try FileManager.default.attributesOfItem(atPath: project.url("Sources/app/util.lua").path)[.size]
            as? Int
        #expect(module?.contains("Sources/app/util.lua") == true)
        #expect(module?.contains("\(utilSize ?? -1) bytes") == true)
        let resource = hoverText(
            try server.request("textDocument/hover", server.position(main, line: 1, character: 28)))
        #expect(resource?.contains("img/logo.png") == true)
        #expect(resource?.contains("1,234 bytes") == true)
        server.change(main, version: 2, [["range": range(3, 0, 3, 0), "text": "-- flowpkg: ignore-file FP405"]])
        let code = hoverText(try server.request("textDocument/hover", server.position(main, line: 3, character: 26)))
        #expect(code?.hasPrefix("**FP405**: A global is read") == true)
        _ = server.closeInput()
    }
}
