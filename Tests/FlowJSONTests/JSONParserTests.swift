import Testing
@testable import FlowJSON

/// The one JSON reader behind flowpkg.json, manifest.json and template.json: duplicate keys
/// refused where they are, nesting bounded, integers exact.
@Suite struct JSONParserTests {
    func failure(_ text: String, maxDepth: Int = JSONParser.maximumDepth) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
            return nil
        } catch {
            return error
        }
    }

    @Test func aKeyGivenTwiceIsRefusedAtItsSecondPlace() {
        let top = failure("{\"name\": \"a\",\n  \"name\": \"b\"}")
        #expect(top?.message == "the key \"name\" appears twice in one object")
        #expect(top?.position == JSONPosition(line: 2, column: 3))
        #expect(top?.offset == 16)
        // In a nested object too, and in a large object (past the linear search).
        #expect(failure(#"{"a": [{"x": 1, "x": 2}]}"#)?.message == "the key \"x\" appears twice in one object")
        let keys = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(failure("{\(keys), \"k7\": 0}")?.message == "the key \"k7\" appears twice in one object")
        #expect(failure("{\(keys)}") == nil)
        // The same key in two objects is fine.
        #expect(failure(#"[{"x": 1}, {"x": 2}]"#) == nil)
    }

    @Test func nestingIsBounded() {
        let allowed = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
        #expect(failure(allowed, maxDepth: 16) == nil)
        let deeper = "{\"a\": " + allowed + "}"
        #expect(failure(deeper, maxDepth: 16)?.message == "nested deeper than 16 levels")
        #expect(failure(deeper, maxDepth: 16)?.offset == 21)
        // The default bound stops a hostile document long before the stack is in danger.
        #expect(
            failure(String(repeating: "[", count: 1_000_000))?.message
                == "nested deeper than \(JSONParser.maximumDepth) levels")
    }

    @Test func integersAreExactAndOtherNumbersAreNot() throws {
        let node = try JSONParser.parse(
            Array("[9223372036854775807, -9223372036854775808, 9223372036854775808, 1e2, -0]".utf8))
        guard case .array(let elements) = node.value else { Issue.record("not an array"); return }
        #expect(
            elements.map(\.value) == [
                .integer(.max), .integer(.min), .number(9223372036854775808), .number(100), .integer(0),
            ])
        #expect(elements.map(\.kindDescription) == Array(repeating: "a number", count: 5))
    }

    @Test func errorsGiveTheByteOffsetAndThePosition() {
        let error = failure("{\n  \"a\": [1, 2,]\n}")
        #expect(error?.message == "trailing comma before ']'")
        #expect(error?.position == JSONPosition(line: 2, column: 14))
        #expect(error?.offset == 15)
    }
}
