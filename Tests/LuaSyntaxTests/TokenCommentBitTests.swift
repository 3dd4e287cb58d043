import Foundation
import FlowTestSupport
import Testing
@testable import LuaSyntax

/// `LuaTokenStream.hasComment(before:)` reads the bit the lexer sets as it skips a comment; it
/// must say what the bytes between two tokens say (a `-` there starts a comment, and nothing
/// else there holds one), for the lexer's stream and the parser's.
@Suite struct TokenCommentBitTests {
    static let samples: [String] = [
        "",
        "-- only a comment\n",
        "--[==[ long\ncomment ]==]",
        "#!/usr/bin/env lua\n-- after the prelude\nprint('x')\n",
        "\u{FEFF}#!/usr/bin/lua\n--[[x]]local a <const> = 1 --tail\n",
        "a = 1 - -2 -- minus, then a comment\nb = c--[[ inside ]]-d\n",
        "t = { 1, -- one\n 2 --[[ two ]], 3 }\r\n-- last, before eof",
        "x = '--not a comment' .. [[-- nor this]] -- but this\n",
        "f()\n\n\n--\n--\n\ng()\u{0B}\u{0C}-- vertical tab and form feed before it\n",
    ]

    @Test func samplesMarkTheTokensAfterAComment() throws {
        for sample in Self.samples {
            try expectBitsMatchBytes(Array(sample.utf8), name: sample)
        }
        let stream = try LuaTokenStream(source: Array("a = 1 -- c\nb = 2".utf8))
        #expect(stream.tokens.map(\.commentBefore) == [false, false, false, true, false, false, false])
    }

    @Test func installedLuaMarksTheTokensAfterAComment() throws {
        let files = InstalledLua.files()
        #expect(files.count > 50, "expected Debian's Lua packages under /usr/share/lua")
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            guard (try? LuaParser.parse(bytes)) != nil else { continue }
            try expectBitsMatchBytes(bytes, name: path)
        }
    }

    /// What `hasComment(before:)` answered before the bit: whether a `-` lies between the token
    /// and the one before it (or the prelude).
    func scanned(_ stream: LuaTokenStream, _ index: Int) -> Bool {
        let start = index == 0 ? stream.preludeEnd : stream.end(index - 1)
        return stream.source[start..<Int(stream.tokens[index].offset)].contains(UInt8(ascii: "-"))
    }

    func expectBitsMatchBytes(_ bytes: [UInt8], name: String) throws {
        let alone = try LuaTokenStream(source: bytes)
        let (_, parsed) = try LuaParser.parseWithTokens(bytes)
        for stream in [alone, parsed] {
            let wrong = stream.tokens.indices.first { stream.hasComment(before: $0) != scanned(stream, $0) }
            #expect(wrong == nil, "\(name): token \(wrong ?? -1)")
            let withComments = stream.tokens.indices.filter { stream.hasComment(before: $0) }
            let fromTrivia = stream.tokens.indices.filter {
                stream.trivia(before: $0).contains { if case .comment = $0 { true } else { false } }
            }
            #expect(withComments == fromTrivia, "\(name)")
        }
    }
}
