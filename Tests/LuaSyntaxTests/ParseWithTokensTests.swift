import Foundation
import FlowTestSupport
import Testing
@testable import LuaSyntax

/// `LuaParser.parseWithTokens` gives the tree `LuaParser.parse` gives and the tokens
/// `LuaTokenStream(source:)` lexes, from one lexing; and the parser's error for broken input.
@Suite struct ParseWithTokensTests {
    static let samples: [String] = [
        "",
        "-- only a comment\n",
        "#!/usr/bin/env lua\nprint('x')\n",
        "\u{FEFF}#!/usr/bin/lua\n\nlocal a <const> = 1\n",
        "\u{FEFF}return 1",
        "local t = { a = 1, [2] = 'b'; c = [==[long\n]]string]==] } --[[ block ]] -- line\n",
        "for k, v in pairs(t) do goto continue ::continue:: end\n",
        "local x = a.b:c(d)[e] // 2 ~ 3 >> 1 .. \"s\\\"q\" ; ; return x",
        "function m.n:o(...) if a then elseif b then else end repeat until x while y do break end end",
        "f { g = function() return end, h = 0x1p4, i = 1e-3 } f 'str' f [[long]]",
    ]

    @Test func samplesGiveTheSameTreeAndTokens() throws {
        for sample in Self.samples {
            try expectSame(Array(sample.utf8), name: sample)
        }
    }

    @Test func installedLuaGivesTheSameTreeAndTokens() throws {
        let files = InstalledLua.files()
        #expect(files.count > 50, "expected Debian's Lua packages under /usr/share/lua")
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            guard (try? LuaParser.parse(bytes)) != nil else { continue }
            try expectSame(bytes, name: path)
        }
    }

    @Test func brokenSourceThrowsTheParsersError() {
        for broken in ["local = 1", "x = [[unfinished", "f(", "return 'a\nb'", "goto"] {
            let bytes = Array(broken.utf8)
            var expected: LuaSyntaxError?
            do { _ = try LuaParser.parse(bytes) } catch { expected = error }
            var found: LuaSyntaxError?
            do { _ = try LuaParser.parseWithTokens(bytes) } catch { found = error }
            #expect(expected != nil)
            #expect(found == expected, "\(broken)")
        }
    }

    /// Without interning names (the formatter's parse) the tree is the same but for the names'
    /// symbols, and every name, local, label and string reads the same text; attributes are
    /// read as before, and an unknown one fails as before.
    @Test func namesNotInternedReadTheSameTexts() throws {
        var sources = Self.samples.map { Array($0.utf8) }
        sources.append(Array("local a <const>, b <close> = 1, nil\nlocal c <const> = a\n".utf8))
        for path in InstalledLua.files() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            if (try? LuaParser.parse(bytes)) != nil { sources.append(bytes) }
        }
        for bytes in sources {
            let (tree, _) = try LuaParser.parseWithTokens(bytes, internsNames: false)
            let parsed = try LuaParser.parse(bytes)
            #expect(tree.nodes.count == parsed.nodes.count && tree.lists == parsed.lists)
            for (id, (mine, theirs)) in zip(tree.nodes, parsed.nodes).enumerated() {
                #expect(mine.kind == theirs.kind && mine.op == theirs.op && mine.b == theirs.b && mine.c == theirs.c)
                switch theirs.kind {
                case .name, .localName, .label, .gotoStatement, .string:
                    #expect(tree.text(of: Int32(id)) == parsed.text(of: Int32(id)))
                default:
                    #expect(mine.a == theirs.a)
                }
            }
        }
        var expected: LuaSyntaxError?
        do { _ = try LuaParser.parse(Array("local x <frozen> = 1".utf8)) } catch { expected = error }
        var found: LuaSyntaxError?
        do { _ = try LuaParser.parseWithTokens(Array("local x <frozen> = 1".utf8), internsNames: false) } catch {
            found = error
        }
        #expect(expected != nil && found == expected)
    }

    func expectSame(_ bytes: [UInt8], name: String) throws {
        let (tree, stream) = try LuaParser.parseWithTokens(bytes)
        let alone = try LuaTokenStream(source: bytes)
        let parsed = try LuaParser.parse(bytes)
        #expect(stream.source == bytes && tree.source == bytes, "\(name)")
        #expect(stream.preludeEnd == alone.preludeEnd, "\(name)")
        #expect(stream.tokens.count == alone.tokens.count, "\(name)")
        for (mine, theirs) in zip(stream.tokens, alone.tokens) {
            let same =
                mine.kind == theirs.kind && mine.offset == theirs.offset && mine.length == theirs.length
                && mine.line == theirs.line && mine.column == theirs.column && mine.symbol == theirs.symbol
                && mine.commentBefore == theirs.commentBefore
            #expect(same, "\(name): token at \(theirs.offset)")
            if !same { return }
        }
        #expect(tree.root == parsed.root && tree.lineCount == parsed.lineCount, "\(name)")
        #expect(tree.nodes.count == parsed.nodes.count && tree.lists == parsed.lists, "\(name)")
        #expect(Array(tree.symbols) == parsed.symbolTable.strings(), "\(name)")
        let nodesSame = zip(tree.nodes, parsed.nodes).allSatisfy {
            $0.kind == $1.kind && $0.op == $1.op && $0.line == $1.line && $0.column == $1.column && $0.a == $1.a
                && $0.b == $1.b && $0.c == $1.c
        }
        #expect(nodesSame, "\(name)")
    }
}
