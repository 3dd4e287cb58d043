import Foundation
import Testing

@testable import FlowLanguageServer

/// Go to definition, references, rename and hover on module fields, methods, locals and
/// upvalues, over the protocol.
@Suite struct SymbolNavigationTests {
    static let banner = """
        local M = {}

        --- Draws the banner's frame.
        --- Returns its width.
        function M.frame(width, height)
          return width
        end

        M.color = function(name) return name end

        function M:show(text) return M.frame(text, 1) + self.frame(text, 2) end

        return M

        """

    static let theme = """
        return {
          --- The accent colour.
          accent = function(level) return level end,
        }

        """

    static let other = """
        local B = require("Banner")
        return B.frame(1, 2) + require("Banner").frame(3, 4)

        """

    static let main = """
        local Banner = require "Banner"
        local Theme = require "Theme"
        local width = Banner.frame(10, 20)
        Banner:show("hi")
        print(Theme.accent(2), Banner.color("red"), Banner.missing)
        local count = 1
        local function bump()
          count = count + 1
          local count = 5
          return count
        end
        local Fake = {}
        print(width, bump(), count, Fake.frame, Other.frame)

        """

    private func start() throws -> (SampleProject, ServerConnection, URL) {
        let project = try SampleProject()
        try project.write("Sources/Banner.lua", Self.banner)
        try project.write("Sources/Theme.lua", Self.theme)
        try project.write("Sources/Other.lua", Self.other)
        try project.write("Sources/Main.lua", Self.main)
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let main = project.url("Sources/Main.lua")
        server.open(main, Self.main)
        return (project, server, main)
    }

    /// The 0-based line and character of the `index`th `needle` on line `line` of `text`.
    private func at(_ text: String, _ line: Int, _ needle: String, _ index: Int = 0) -> (line: Int, character: Int) {
        let lineText = text.components(separatedBy: "\n")[line]
        var searchFrom = lineText.startIndex
        var found = lineText.startIndex
        for _ in 0...index {
            let range = lineText.range(of: needle, range: searchFrom..<lineText.endIndex)!
            found = range.lowerBound
            searchFrom = range.upperBound
        }
        return (line, lineText.distance(from: lineText.startIndex, to: found))
    }

    private func params(_ url: URL, _ place: (line: Int, character: Int)) -> [String: Any] {
        ["textDocument": ["uri": url.absoluteString], "position": ["line": place.line, "character": place.character]]
    }

    private struct Place: Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        var character: Int
        var description: String { "\(file):\(line):\(character)" }
    }

    private func places(_ response: [String: Any]) -> [Place] {
        (response["result"] as? [[String: Any]] ?? []).map { location in
            let start = (location["range"] as? [String: Any])?["start"] as? [String: Any]
            return Place(
                file: URL(string: location["uri"] as? String ?? "")?.lastPathComponent ?? "",
                line: start?["line"] as? Int ?? -1, character: start?["character"] as? Int ?? -1)
        }
    }

    private func place(_ file: String, _ text: String, _ line: Int, _ needle: String, _ index: Int = 0) -> Place {
        let found = at(text, line, needle, index)
        return Place(file: file, line: found.line, character: found.character)
    }

    @Test func definitionOfModuleFieldsAndMethods() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        func definition(_ line: Int, _ needle: String, _ index: Int = 0) throws -> [Place] {
            places(try server.request("textDocument/definition", params(main, at(Self.main, line, needle, index))))
        }
        // `function M.frame`, `function M:show`, `M.color = function`, a key of the returned table.
        #expect(try definition(2, "frame") == [place("Banner.lua", Self.banner, 4, "frame")])
        #expect(try definition(3, "show") == [place("Banner.lua", Self.banner, 10, "show")])
        #expect(try definition(4, "color") == [place("Banner.lua", Self.banner, 8, "color")])
        #expect(try definition(4, "accent") == [place("Theme.lua", Self.theme, 2, "accent")])
        // The module's own uses of its table, and another alias in another module.
        let banner = project.url("Sources/Banner.lua")
        for index in [0, 1] {  // `M.frame` and, in a method of M, `self.frame`
            let inside = places(
                try server.request("textDocument/definition", params(banner, at(Self.banner, 10, "frame", index))))
            #expect(inside == [place("Banner.lua", Self.banner, 4, "frame")])
        }
        let other = project.url("Sources/Other.lua")
        for index in [0, 1] {
            let viaAlias = places(
                try server.request("textDocument/definition", params(other, at(Self.other, 1, "frame", index))))
            #expect(viaAlias == [place("Banner.lua", Self.banner, 4, "frame")])
        }
        // A field Banner does not define, a field of a plain local table, of a global table.
        #expect(try definition(4, "missing").isEmpty)
        #expect(try definition(12, "frame", 0).isEmpty)
        #expect(try definition(12, "frame", 1).isEmpty)
        _ = server.closeInput()
    }

    @Test func definitionOfLocalsAndUpvaluesRespectsShadowing() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        func definition(_ line: Int, _ needle: String, _ index: Int = 0) throws -> [Place] {
            places(try server.request("textDocument/definition", params(main, at(Self.main, line, needle, index))))
        }
        let outerCount = place("Main.lua", Self.main, 5, "count")
        let innerCount = place("Main.lua", Self.main, 8, "count")
        // An upvalue, read and written inside bump.
        #expect(try definition(7, "count", 0) == [outerCount])
        #expect(try definition(7, "count", 1) == [outerCount])
        // The shadowing local is its own symbol.
        #expect(try definition(9, "count") == [innerCount])
        #expect(try definition(12, "count") == [outerCount])
        #expect(try definition(12, "bump") == [place("Main.lua", Self.main, 6, "bump")])
        #expect(try definition(2, "Banner") == [place("Main.lua", Self.main, 0, "Banner")])
        // A global is still found where a module assigns it (none here: print is Lua's).
        #expect(try definition(12, "print").isEmpty)
        _ = server.closeInput()
    }

    @Test func referencesOfAModuleFieldAcrossModulesAndOfLocals() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        func references(_ line: Int, _ needle: String, _ index: Int = 0, declaration: Bool) throws -> [Place] {
            var request = params(main, at(Self.main, line, needle, index))
            request["context"] = ["includeDeclaration": declaration]
            return places(try server.request("textDocument/references", request)).sorted {
                $0.description < $1.description
            }
        }
        let uses = [
            place("Banner.lua", Self.banner, 10, "frame", 0), place("Banner.lua", Self.banner, 10, "frame", 1),
            place("Main.lua", Self.main, 2, "frame"),
            place("Other.lua", Self.other, 1, "frame", 0),
            place("Other.lua", Self.other, 1, "frame", 1),
        ].sorted { $0.description < $1.description }
        #expect(try references(2, "frame", declaration: false) == uses)
        #expect(
            try references(2, "frame", declaration: true)
                == (uses + [place("Banner.lua", Self.banner, 4, "frame")]).sorted { $0.description < $1.description })
        // Fake.frame is no module's field: it is not among them, and has none.
        #expect(try references(12, "frame", 0, declaration: true).isEmpty)

        let outer = try references(5, "count", declaration: true)
        #expect(
            outer
                == [
                    place("Main.lua", Self.main, 12, "count"), place("Main.lua", Self.main, 5, "count"),
                    place("Main.lua", Self.main, 7, "count", 0), place("Main.lua", Self.main, 7, "count", 1),
                ].sorted { $0.description < $1.description })
        let inner = try references(9, "count", declaration: true)
        #expect(inner == [place("Main.lua", Self.main, 8, "count"), place("Main.lua", Self.main, 9, "count")])
        _ = server.closeInput()
    }

    private func edits(_ response: [String: Any]) -> [Place] {
        let changes = (response["result"] as? [String: Any])?["changes"] as? [String: [[String: Any]]] ?? [:]
        return changes.flatMap { uri, edits in
            edits.map { edit in
                let start = (edit["range"] as? [String: Any])?["start"] as? [String: Any]
                return Place(
                    file: URL(string: uri)?.lastPathComponent ?? "", line: start?["line"] as? Int ?? -1,
                    character: start?["character"] as? Int ?? -1)
            }
        }.sorted { $0.description < $1.description }
    }

    @Test func renameAModuleFieldEverywhereAndALocalInItsScope() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        let prepared = try server.request("textDocument/prepareRename", params(main, at(Self.main, 2, "frame")))
        let result = try #require(prepared["result"] as? [String: Any])
        #expect(result["placeholder"] as? String == "frame")
        let start = at(Self.main, 2, "frame")
        #expect(
            NSDictionary(dictionary: result["range"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: range(2, start.character, 2, start.character + 5)))

        var request = params(main, at(Self.main, 2, "frame"))
        request["newName"] = "draw"
        let renamed = try server.request("textDocument/rename", request)
        #expect(
            edits(renamed)
                == [
                    place("Banner.lua", Self.banner, 10, "frame", 0), place("Banner.lua", Self.banner, 10, "frame", 1),
                    place("Banner.lua", Self.banner, 4, "frame"),
                    place("Main.lua", Self.main, 2, "frame"),
                    place("Other.lua", Self.other, 1, "frame", 0), place("Other.lua", Self.other, 1, "frame", 1),
                ].sorted { $0.description < $1.description })
        let newTexts = ((renamed["result"] as? [String: Any])?["changes"] as? [String: [[String: Any]]] ?? [:])
            .values.flatMap { $0.compactMap { $0["newText"] as? String } }
        #expect(Set(newTexts) == ["draw"])

        // The shadowing local only: its two lines, not the outer count's.
        var local = params(main, at(Self.main, 9, "count"))
        local["newName"] = "inner"
        #expect(
            edits(try server.request("textDocument/rename", local))
                == [place("Main.lua", Self.main, 8, "count"), place("Main.lua", Self.main, 9, "count")])
        _ = server.closeInput()
    }

    @Test func renameRefusesWhatItCannotRenameAndNamesThatAreNotLua() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        // A field no module defines, a plain table's field, a global: nothing to prepare.
        for (line, needle, index) in [(4, "missing", 0), (12, "frame", 0), (12, "frame", 1), (12, "print", 0)] {
            let response = try server.request(
                "textDocument/prepareRename", params(main, at(Self.main, line, needle, index)))
            #expect(response["result"] is NSNull, "\(needle) on line \(line)")
            #expect(response["error"] == nil)
        }
        var request = params(main, at(Self.main, 4, "missing"))
        request["newName"] = "present"
        let refused = try server.request("textDocument/rename", request)
        #expect((refused["error"] as? [String: Any])?["code"] as? Int == -32803)
        // Names that would change meaning: a field Banner already has; inside bump, the outer
        // count renamed to bump's own inner name, or to width (read on the same line as count).
        var clash = params(main, at(Self.main, 2, "frame"))
        clash["newName"] = "color"
        let fieldClash = try server.request("textDocument/rename", clash)
        #expect(
            ((fieldClash["error"] as? [String: Any])?["message"] as? String)?.contains("already defines 'color'")
                == true)
        for newName in ["width", "bump"] {
            var capture = params(main, at(Self.main, 5, "count"))
            capture["newName"] = newName
            let refused = try server.request("textDocument/rename", capture)
            #expect(
                ((refused["error"] as? [String: Any])?["message"] as? String)?.contains(
                    "would change what a name means")
                    == true, "\(newName)")
        }
        var fine = params(main, at(Self.main, 5, "count"))
        fine["newName"] = "total"
        #expect(try server.request("textDocument/rename", fine)["result"] is [String: Any])
        for bad in ["end", "2x", "a-b", ""] {
            var request = params(main, at(Self.main, 2, "frame"))
            request["newName"] = bad
            let response = try server.request("textDocument/rename", request)
            let error = try #require(response["error"] as? [String: Any], "\(bad)")
            #expect(error["code"] as? Int == -32602)
            #expect((error["message"] as? String)?.contains("is not a Lua name") == true)
        }
        _ = server.closeInput()
    }

    private func hoverText(_ response: [String: Any]) -> String? {
        ((response["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
    }

    @Test func hoverShowsParametersAndTheDocComment() throws {
        let (project, server, main) = try start()
        defer { project.remove() }
        func hover(_ line: Int, _ needle: String, _ index: Int = 0) throws -> String? {
            hoverText(try server.request("textDocument/hover", params(main, at(Self.main, line, needle, index))))
        }
        let frame = try #require(try hover(2, "frame"))
        #expect(frame.contains("function Banner.frame(width, height)"))
        #expect(frame.contains("Draws the banner's frame.\nReturns its width."))
        #expect(frame.contains("Sources/Banner.lua:5"))
        let show = try #require(try hover(3, "show"))
        #expect(show.contains("function Banner:show(text)"))
        #expect(!show.contains("Draws"))  // no doc comment above it
        let accent = try #require(try hover(4, "accent"))
        #expect(accent.contains("function Theme.accent(level)"))
        #expect(accent.contains("The accent colour."))
        #expect(try hover(12, "bump")?.contains("local function bump()") == true)
        #expect(try hover(12, "width")?.contains("local width") == true)
        #expect(try hover(2, "Banner")?.contains("local Banner = require \"Banner\"") == true)
        #expect(try hover(4, "missing")?.contains("module `Banner` does not define it") == true)
        #expect(try hover(12, "frame", 0) == nil)
        // A global function another module defines, and a global that is no function.
        let tools = project.url("Sources/Tools.lua")
        let toolsText = "--- Clamps v.\nfunction clamp(v, low, high) return v end\nlimit = 3\nreturn {}\n"
        try project.write("Sources/Tools.lua", toolsText)
        server.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": tools.absoluteString, "type": 1]]])
        server.change(main, version: 2, [["range": range(13, 0, 13, 0), "text": "print(clamp(1, 0, 2), limit)\n"]])
        let clamp = try #require(
            hoverText(try server.request("textDocument/hover", server.position(main, line: 13, character: 8))))
        #expect(clamp.contains("function clamp(v, low, high)"))
        #expect(clamp.contains("Clamps v."))
        #expect(clamp.contains("Sources/Tools.lua:2"))
        let limit = hoverText(
            try server.request("textDocument/hover", server.position(main, line: 13, character: 24)))
        #expect(limit?.hasPrefix("**global `limit`**") == true)
        _ = server.closeInput()
    }

    @Test func theServerOffersReferencesAndRenameAndCopesWithABufferThatDoesNotParse() throws {
        let project = try SampleProject()
        defer { project.remove() }
        try project.write("Sources/Banner.lua", Self.banner)
        let server = ServerConnection()
        let result = try server.initialize(root: project.root)
        let capabilities = try #require(result["capabilities"] as? [String: Any])
        #expect(capabilities["referencesProvider"] as? Bool == true)
        #expect((capabilities["renameProvider"] as? [String: Any])?["prepareProvider"] as? Bool == true)
        // Mid-edit text that does not parse: no symbols, no error; the require is still followed.
        let main = project.url("Sources/Main.lua")
        let broken = "local Banner = require \"Banner\"\nlocal x = Banner.frame(\nlocal y = x +\n"
        server.open(main, broken)
        let definition = try server.request("textDocument/definition", params(main, at(broken, 1, "frame")))
        #expect((definition["result"] as? [Any])?.isEmpty == true)
        let references = try server.request("textDocument/references", params(main, at(broken, 1, "x")))
        #expect((references["result"] as? [Any])?.isEmpty == true)
        #expect(try server.request("textDocument/prepareRename", params(main, at(broken, 1, "x")))["result"] is NSNull)
        let module = places(try server.request("textDocument/definition", params(main, at(broken, 0, "Banner", 1))))
        #expect(module == [Place(file: "Banner.lua", line: 0, character: 0)])
        _ = server.closeInput()
    }
}
