import Foundation
import FlowTestSupport
import Testing
@testable import LuaSyntax

/// `LuaTokenStream.trivia(before:)` gives each comment's text as it did when it trimmed a line
/// comment's trailing spacing as characters (it now trims bytes where that is the same).
@Suite struct CommentTriviaTests {
    static let samples: [String] = [
        "-- plain   \nx = 1 --\t \u{0B}\u{0C}\n",
        "--[[ long   ]]   \n--[==[ kept \n  ]==]\n",
        "-- é   \n-- ü\t\nx = 1 -- 中文 \n",
        "-- prepend \u{0600} \n-- combining e\u{0301} \n-- space then mark \u{0301}\n",
        "--   \n-- \n--\n",
        "x = 1 -- \u{FEFF} \n",
    ]

    @Test func samplesKeepTheirCommentTexts() throws {
        for sample in Self.samples {
            try expectSameComments(Array(sample.utf8), name: sample)
        }
        var invalid = Array("x = 1 -- bad ".utf8)
        invalid.append(contentsOf: [0xE2, 0x82, 0x20, 0x20, 0x0A, 0xFF, 0x20])
        try expectSameComments(Array(invalid.prefix(17)), name: "invalid UTF-8 before spaces")
        let stream = try LuaTokenStream(source: Array("-- a \t\nx = 1 -- b \u{0301} ".utf8))
        #expect(stream.trivia(before: 0) == [.comment("-- a", isLong: false), .newlines(1)])
        #expect(stream.trivia(before: 3) == [.comment("-- b \u{0301}", isLong: false)])
    }

    @Test func installedLuaKeepsItsCommentTexts() throws {
        for path in InstalledLua.files() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            guard (try? LuaParser.parse(bytes)) != nil else { continue }
            try expectSameComments(bytes, name: path)
        }
    }

    /// The comment texts before token `index` as the character trimming gave them: each
    /// comment's bytes decoded whole, then its last characters dropped while they are spacing.
    func characterTrimmed(_ stream: LuaTokenStream, _ index: Int) -> [String] {
        let source = stream.source
        var position = index == 0 ? stream.preludeEnd : stream.end(index - 1)
        let stop = Int(stream.tokens[index].offset)
        var texts: [String] = []
        while position < stop {
            guard source[position] == UInt8(ascii: "-") else {
                position += 1
                continue
            }
            let start = position
            position += 2
            if let level = LuaTokenStream.longBracketLevel(source, at: position, stop: stop) {
                position = LuaTokenStream.longBracketEnd(source, from: position + level + 2, level: level, stop: stop)
                texts.append(String(decoding: source[start..<position], as: UTF8.self))
                continue
            }
            while position < stop && source[position] != 10 && source[position] != 13 { position += 1 }
            var characters = Substring(String(decoding: source[start..<position], as: UTF8.self))
            while let last = characters.last, last == " " || last == "\t" || last == "\u{0B}" || last == "\u{0C}" {
                characters = characters.dropLast()
            }
            texts.append(String(characters))
        }
        return texts
    }

    func expectSameComments(_ bytes: [UInt8], name: String) throws {
        let stream = try LuaTokenStream(source: bytes)
        for index in stream.tokens.indices where stream.hasComment(before: index) {
            let comments = stream.trivia(before: index).compactMap { piece -> String? in
                if case .comment(let text, _) = piece { return text }
                return nil
            }
            #expect(comments == characterTrimmed(stream, index), "\(name): token \(index)")
        }
    }
}
