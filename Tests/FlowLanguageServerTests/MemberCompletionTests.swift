import Foundation
import Testing

@testable import FlowLanguageServer

/// Issues 46 (bug 5) and 47: completion after `.` and `:` lists the object's members (a
/// project module's table, a class's methods, the standard library), filtered by what is
/// typed, each with its signature and doc comment, and nothing global; over the protocol.
@Suite struct MemberCompletionTests {
    static let util = """
        local Util = {}

        --- Doubles a number.
        ---@param n number the number to double
        ---@return number
        function Util.double(n)
          return n * 2
        end

        function Util.halve(n) return n / 2 end

        return Util

        """

    static let counter = """
        ---@class Counter
        ---@field count integer how many so far
        local Counter = {}
        Counter.__index = Counter

        --- Adds one.
        function Counter:increment()
          self.count = self.count + 1
        end

        function Counter:reset()

        end

        return Counter

        """

    private func items(_ response: [String: Any]) -> [[String: Any]] {
        ((response["result"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
    }

    private func labels(_ response: [String: Any]) -> [String] { items(response).compactMap { $0["label"] as? String } }

    @Test func membersOfAModuleAClassAndTheStandardLibrary() throws {
        let project = try SampleProject(environment: "lua")
        defer { project.remove() }
        try project.write("Sources/Util.lua", Self.util)
        try project.write("Sources/Counter.lua", Self.counter)
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")
        let text = "local Util = require \"Util\"\n\n"
        server.open(main, text)

        // `Util.`: the module's functions, nothing global.
        server.change(main, version: 2, [["range": range(1, 0, 1, 0), "text": "print(Util."]])
        let all = try server.request("textDocument/completion", server.position(main, line: 1, character: 11))
        #expect(labels(all) == ["double", "halve"])
        let double = try #require(items(all).first)
        #expect(double["detail"] as? String == "function double(n: number): number")
        #expect(
            ((double["documentation"] as? [String: Any])?["value"] as? String)?.contains("Doubles a number.") == true)

        // `Util.dou`: filtered by the typed prefix.
        server.change(main, version: 3, [["range": range(1, 11, 1, 11), "text": "dou"]])
        let partial = try server.request("textDocument/completion", server.position(main, line: 1, character: 14))
        #expect(labels(partial) == ["double"])

        // `string.fo`: the standard library.
        server.change(main, version: 4, [["range": range(1, 0, 1, 14), "text": "string.fo"]])
        let strings = try server.request("textDocument/completion", server.position(main, line: 1, character: 9))
        #expect(labels(strings) == ["format"])
        server.change(main, version: 5, [["range": range(1, 0, 1, 9), "text": "math."]])
        let math = labels(try server.request("textDocument/completion", server.position(main, line: 1, character: 5)))
        #expect(math.contains("floor") && math.contains("pi") && !math.contains("print"))

        // `self:` in a method: the class's methods.
        let counter = project.url("Sources/Counter.lua")
        server.open(counter, Self.counter)
        server.change(counter, version: 2, [["range": range(11, 0, 11, 0), "text": "  self:"]])
        let methods = try server.request("textDocument/completion", server.position(counter, line: 11, character: 7))
        #expect(labels(methods) == ["increment", "reset"])
        server.change(counter, version: 3, [["range": range(11, 0, 11, 7), "text": "  self."]])
        let fields = labels(
            try server.request("textDocument/completion", server.position(counter, line: 11, character: 7)))
        #expect(fields.contains("count") && fields.contains("increment"))
        _ = server.closeInput()
    }

    @Test func memberAccessIsReadBackwardsFromTheCursor() {
        func access(_ line: String) -> LanguageServer.MemberAccess? {
            LanguageServer.memberAccess(at: line.utf8.count, in: ArraySlice(Array(line.utf8)))
        }
        #expect(access("print(Util.dou") == .init(chain: ["Util"], prefix: "dou", isMethod: false))
        #expect(access("  self:") == .init(chain: ["self"], prefix: "", isMethod: true))
        #expect(access("a.b.c") == .init(chain: ["a", "b"], prefix: "c", isMethod: false))
        #expect(access("x = 1 .. ") == nil)
        #expect(access("print(name") == nil)
        #expect(access("y = 3.") == nil)
    }
}
