import Testing

@testable import FlowJSON

/// The one JSON string writer: what RFC 8259 requires escaped is escaped, DEL too (allowed, and
/// what package manifests have always held), and every string reads back as itself.
@Suite struct JSONTextTests {
    @Test func quotesBackslashesAndControlCharactersAreEscaped() {
        #expect(JSONText.quoted("a\"b\\c\u{1}é") == "\"a\\\"b\\\\c\\u0001é\"")
        #expect(JSONText.quoted("\n\r\t") == "\"\\n\\r\\t\"")
        #expect(JSONText.quoted("\u{0}\u{1F}") == "\"\\u0000\\u001f\"")
        #expect(JSONText.quoted("\u{7F}") == "\"\\u007f\"")
        // Above DEL nothing is escaped: C1 controls, non-ASCII letters, emoji, the line separators.
        #expect(JSONText.quoted("\u{80}ü漢😀\u{2028}") == "\"\u{80}ü漢😀\u{2028}\"")
        #expect(JSONText.quoted("/") == "\"/\"")
    }

    /// RFC 8259, section 7: quotation mark, reverse solidus and U+0000 to U+001F must be escaped;
    /// no raw one is ever written.
    @Test func nothingTheRFCRequiresEscapedIsWrittenRaw() {
        for value in UInt32(0)...0x7F {
            let scalar = Unicode.Scalar(value)!
            let inner = JSONText.quoted(String(scalar)).utf8.dropFirst().dropLast()
            if value < 0x20 || value == 0x22 || value == 0x5C || value == 0x7F {
                #expect(inner.first == UInt8(ascii: "\\"), "U+\(String(value, radix: 16))")
            } else {
                #expect(Array(inner) == [UInt8(value)], "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func everyStringReadsBackAsItselfThroughTheParser() throws {
        var samples = (UInt32(0)...0x7F).map { String(Unicode.Scalar($0)!) }
        samples += [
            "", "plain", "a\"b\\c", "line\nnext\r\n", "\u{7F}\u{80}\u{9F}", "é漢😀", "\u{2028}\u{2029}", "\u{FEFF}x",
        ]
        for sample in samples {
            let text = "{\"k\": " + JSONText.quoted(sample) + "}"
            let value = try JSONParser.parse(Array(text.utf8))
            #expect(value["k"]?.value == .string(sample), "\(Array(sample.unicodeScalars))")
        }
    }
}
