import FlowJSON
import FlowPackage
import FlowLua
@testable import FlowProject
import Foundation
import Testing

@Suite struct ValidationCheckTests {
    @Test func jsonPositionsAndErrors() throws {
        let node = try JSONParser.parse(Array("{\n  \"a\": [1, \"\\u00e9\\ud83d\\ude00\"],\n  \"b\": null }".utf8))
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[0].keyPosition == JSONPosition(line: 2, column: 3))
        #expect(members[0].value.position == JSONPosition(line: 2, column: 8))
        guard case .array(let elements) = members[0].value.value else { Issue.record("not an array"); return }
        #expect(elements[1].value == .string("é😀"))
        func failure(_ text: String) -> JSONSyntaxError? {
            do { _ = try JSONParser.parse(Array(text.utf8)); return nil } catch { return error }
        }
        #expect(failure("{\"a\": 1,}")?.message == "trailing comma before '}'")
        #expect(failure("{\"a\": 1,}")?.position == JSONPosition(line: 1, column: 9))
        #expect(failure("[1, 2")?.message.contains("end of file") == true)
        #expect(failure("{\"a\": tru}")?.position == JSONPosition(line: 1, column: 7))
        #expect(failure("\"tab\there\"") != nil)
        #expect(failure("01") != nil)
        #expect(failure("{} x")?.position == JSONPosition(line: 1, column: 4))
        #expect(failure(String(repeating: "[", count: 100_000))?.message.contains("nested") == true)
        #expect(failure("") != nil)
    }

    @Test func aProjectFileKeyGivenTwiceIsFP101AtItsSecondPlace() {
        let text = "{\n  \"name\": \"A\",\n  \"name\": \"B\"\n}\n"
        let result = ProjectFileDecoder(path: "flowpkg.json").decode(Array(text.utf8))
        #expect(result.diagnostics.map(\.code.code) == ["FP101"])
        #expect(
            result.diagnostics.first?.message
                == "flowpkg.json is not valid JSON: the key \"name\" appears twice in one object")
        #expect(result.diagnostics.first?.line == 3)
        #expect(result.diagnostics.first?.column == 3)
    }

    @Test func textCheck() {
        #expect(TextCheck.problem(in: Array("local s = 'café ☕ 😀'\n".utf8)) == nil)
        #expect(TextCheck.problem(in: Array("ab\ncd\0".utf8))?.line == 2)
        #expect(TextCheck.problem(in: Array("ab\ncd\0".utf8))?.column == 3)
        #expect(TextCheck.problem(in: [0x61, 0xC0, 0x80])?.column == 2)  // overlong
        #expect(TextCheck.problem(in: [0xED, 0xA0, 0x80]) != nil)  // surrogate
        #expect(TextCheck.problem(in: [0xF4, 0x90, 0x80, 0x80]) != nil)  // past U+10FFFF
        #expect(TextCheck.problem(in: [0xE2, 0x82]) != nil)  // truncated
        #expect(TextCheck.problem(in: [0x1B, 0x4C, 0x75, 0x61])?.message.contains("precompiled") == true)
        let longASCII = Array(String(repeating: "abcdefgh", count: 1000).utf8) + [0]
        #expect(TextCheck.problem(in: longASCII)?.column == 8001)
    }

    /// The fast path reads 32 and 8 bytes at a time: a NUL or a bad byte is found at every offset.
    @Test func textCheckAtEveryOffset() {
        let clean = Array(String(repeating: "local x = 1\n", count: 10).utf8)
        #expect(TextCheck.problem(in: clean) == nil)
        for offset in clean.indices {
            for bad: [UInt8] in [[0], [0xFF], [0xC3, 0x28]] {
                var bytes = clean
                bytes.replaceSubrange(offset..<min(clean.count, offset + bad.count), with: bad)
                let problem = TextCheck.problem(in: bytes)
                #expect(problem?.line == offset / 12 + 1)
                #expect(problem?.column == offset % 12 + 1)
            }
        }
    }

    @Test func syntaxColumnsFromTheQuotedToken() {
        func column(_ token: String?, line: Int, _ source: String) -> Int {
            Array(source.utf8).withUnsafeBytes { SyntaxErrorLocation.column(of: token, onLine: line, in: $0) }
        }
        #expect(column("then", line: 2, "x = 1\nif x == then\n") == 9)
        #expect(column("<eof>", line: 2, "f(\nabc") == 4)
        #expect(column("zz", line: 1, "abc") == 1)
        #expect(column(")", line: 3, "a\r\nb\n\rc)") == 2)  // \r\n and \n\r are one break each
        #expect(column(nil, line: 9, "a") == 1)
        #expect(SyntaxErrorLocation.nearToken(in: "unexpected symbol near 'x'") == "x")
        #expect(SyntaxErrorLocation.nearToken(in: "'end' expected near <eof>") == "<eof>")
        #expect(SyntaxErrorLocation.nearToken(in: "no token here") == nil)
    }

    @Test func nestingScannerPointsAtTheDeepestPlace() {
        let source = "-- ((((( in a comment\nlocal s = '((((('\nx = {{\n  f(g(h(1)))\n}}\n"
        let place = Array(source.utf8).withUnsafeBytes { NestingScanner.deepestPlace(in: $0) }
        #expect(place?.line == 4)
        #expect(place?.column == 8)
    }

    @Test func suggestions() {
        #expect(NameSuggestions.closest(to: "mian", in: ["main", "Main", "other"]) == ["Main", "main"])
        #expect(NameSuggestions.closest(to: "x", in: ["completely", "different"]).isEmpty)
        #expect(NameSuggestions.hint(for: "resurces", in: ProjectFile.knownKeys) == "did you mean 'resources'?")
    }

    @Test func projectFileNameAndVersionRules() {
        #expect(ProjectFile.versionProblem("1.0.0") == nil)
        #expect(ProjectFile.versionProblem("2.0.0-beta.1+42") == nil)
        #expect(ProjectFile.versionProblem("v1") != nil)
        #expect(ProjectFile.versionProblem("1.0 final") != nil)
        #expect(ProjectFile.nameProblem("Words Collection") == nil)
        #expect(ProjectFile.nameProblem("a/b") != nil)
        #expect(ProjectFile.nameProblem("  ") != nil)
        #expect(ProjectFile.externalModuleProblem("UIKit.*") == nil)
        #expect(ProjectFile.externalModuleProblem("*") != nil)
    }
}
