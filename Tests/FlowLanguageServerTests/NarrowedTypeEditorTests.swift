import Foundation
import Testing

/// Issue 47: hover and completion see a local's type as the conditions around the cursor
/// narrow it (`if type(x) == "string" then`, `if x then`, an early return), over the protocol.
@Suite struct NarrowedTypeEditorTests {
    static let shape = """
        ---@class Shape
        ---@field width number
        ---@field height number
        local Shape = {}

        return Shape

        """

    static let main = """
        ---@param x string|number
        ---@param s Shape|nil
        local function show(x, s)
          if type(x) == "string" then
            print(x)

          end
          print(x)
          if s then
            print(s)

          end
          if type(x) ~= "string" then return end

        end
        return show

        """

    static let stringMethods = [
        "byte", "char", "dump", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize", "rep",
        "reverse", "sub", "unpack", "upper",
    ]

    private func start() throws -> (SampleProject, ServerConnection, URL) {
        let project = try SampleProject(environment: "lua")
        try project.write("Sources/Shape.lua", Self.shape)
        try project.write("Sources/Main.lua", Self.main)
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")
        server.open(main, Self.main)
        return (project, server, main)
    }

    private func hoverText(_ server: ServerConnection, _ url: URL, line: Int, character: Int) throws -> String? {
        let response = try server.request("textDocument/hover", server.position(url, line: line, character: character))
        return ((response["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
    }

    private func labels(_ server: ServerConnection, _ url: URL, line: Int, character: Int) throws -> [String] {
        let response = try server.request(
            "textDocument/completion", server.position(url, line: line, character: character))
        return (((response["result"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []).compactMap {
            $0["label"] as? String
        }
    }

    @Test func hoverShowsTheNarrowedType() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        // Inside `if type(x) == "string" then`: string; after the `if`: the declared union.
        let inside = try #require(try hoverText(server, main, line: 4, character: 10))
        #expect(inside.hasPrefix("```lua\nlocal x: string\n```"))
        #expect(inside.contains("`Sources/Main.lua:3`"))
        let after = try #require(try hoverText(server, main, line: 7, character: 8))
        #expect(after.hasPrefix("```lua\nlocal x: string|number\n```"))
        // Inside `if s then`: the class without nil.
        let shape = try #require(try hoverText(server, main, line: 9, character: 10))
        #expect(shape.hasPrefix("```lua\nlocal s: Shape\n```"))
        _ = server.closeInput()
    }

    @Test func completionOffersTheNarrowedTypesMembers() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        // `x:` inside `if type(x) == "string" then`: the string methods, and nothing else.
        server.change(main, version: 2, [["range": range(5, 0, 5, 0), "text": "    x:"]])
        #expect(try labels(server, main, line: 5, character: 6) == Self.stringMethods)
        server.change(main, version: 3, [["range": range(5, 6, 5, 6), "text": "up"]])
        #expect(try labels(server, main, line: 5, character: 8) == ["upper"])
        // `s.` inside `if s then`: the class's fields.
        server.change(
            main, version: 4,
            [["range": range(5, 0, 5, 8), "text": ""], ["range": range(10, 0, 10, 0), "text": "    s."]])
        #expect(try labels(server, main, line: 10, character: 6) == ["height", "width"])
        // After `if type(x) ~= "string" then return end`: a string again.
        server.change(
            main, version: 5,
            [["range": range(10, 0, 10, 6), "text": ""], ["range": range(13, 0, 13, 0), "text": "  x:"]])
        #expect(try labels(server, main, line: 13, character: 4) == Self.stringMethods)
        // Where `x` may be a number: nothing is certain, nothing is offered.
        server.change(
            main, version: 6,
            [["range": range(13, 0, 13, 4), "text": ""], ["range": range(7, 0, 7, 0), "text": "  x:\n"]])
        #expect(try labels(server, main, line: 7, character: 4) == [])
        _ = server.closeInput()
    }
}
