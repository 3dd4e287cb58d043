import LanguageServerProtocol
import Testing

@testable import FlowLanguageServer

@Suite struct DocumentTextTests {
    @Test func utf16AndUTF8PositionsMapToTheSameBytes() {
        let text = DocumentText("a = 1\nlocal s = \"é😀\" x\r\nend")
        // The closing quote is at byte 17 of line 1 (é: 2 bytes, 😀: 4), UTF-16 unit 14.
        #expect(text.offset(of: Position(line: 1, character: 14), encoding: .utf16) == 6 + 17)
        #expect(text.offset(of: Position(line: 1, character: 17), encoding: .utf8) == 6 + 17)
        #expect(text.position(line: 2, byteColumn: 18, encoding: .utf16) == Position(line: 1, character: 14))
        #expect(text.position(ofOffset: 6 + 17, encoding: .utf16) == Position(line: 1, character: 14))
        // Past a line's end (its \r\n excluded), past the document's end: clamped.
        #expect(text.offset(of: Position(line: 1, character: 99), encoding: .utf16) == 6 + 20)
        #expect(text.offset(of: Position(line: 9, character: 0), encoding: .utf16) == text.bytes.count)
    }

    @Test func incrementalAndFullChanges() {
        var text = DocumentText("local 😀 = 1\nprint(x)\n")
        text.apply(
            TextDocumentContentChangeEvent(
                range: Range(start: Position(line: 0, character: 6), end: Position(line: 0, character: 8)), text: "x"),
            encoding: .utf16)
        #expect(String(decoding: text.bytes, as: UTF8.self) == "local x = 1\nprint(x)\n")
        text.apply(
            TextDocumentContentChangeEvent(
                range: Range(start: Position(line: 0, character: 11), end: Position(line: 1, character: 0)),
                text: "\n\n"),
            encoding: .utf16)
        #expect(text.lineCount == 4)
        #expect(Array(text.line(2)) == Array("print(x)".utf8))
        text.apply(TextDocumentContentChangeEvent(range: nil, text: "return 1"), encoding: .utf16)
        #expect(text.lineCount == 1)
        #expect(Array(text.line(0)) == Array("return 1".utf8))
    }

    @Test func cursorContexts() {
        func at(_ line: String, _ column: Int) -> CursorContext { CursorContext.at(column, in: ArraySlice(line.utf8)) }
        #expect(at("local m = require(\"a.b\")", 20) == .requireString(text: "a.b", prefix: "a", start: 19))
        #expect(at("local m = require 'a.b'", 23) == .none)  // after the closing quote
        #expect(
            at("x = getResource(\"img/logo\", \"png\")", 20)
                == .resourceName(text: "img/logo", prefix: "img", start: 17, type: "png"))
        #expect(
            at("x = getResource(\"img/logo\", \"pn", 31)
                == .resourceType(name: "img/logo", text: "pn", prefix: "pn", start: 29))
        #expect(at("a.require(\"x\")", 11) == .none)
        #expect(at("print(foo.bar)", 11) == .name("bar", start: 10, end: 13, isField: true))
        #expect(at("-- flowpkg: ignore FP405", 21) == .code("FP405", start: 19, end: 24))
        #expect(at("x = 1 -- require \"a\"", 18) == .none)
    }
}
