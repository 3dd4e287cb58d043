/// A place in a JSON text, 1-based; columns count bytes, as compilers do.
package struct JSONPosition: Sendable, Equatable {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A JSON value with the place it starts at, so diagnostics can point at it.
///
/// Objects keep their members in the order written. Foundation's `JSONSerialization` reports
/// no line or column on Linux and accepts duplicate keys, and `JSONDecoder` loses key order
/// and positions, so every JSON flowpkg reads (flowpkg.json, manifest.json, template.json)
/// goes through `JSONParser`.
package struct JSONNode: Sendable, Equatable {
    package enum Value: Sendable, Equatable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        /// A number written without fraction or exponent that fits an `Int64`.
        case integer(Int64)
        /// Any other number (a fraction, an exponent, or an integer too large for `Int64`).
        case number(Double)
        case bool(Bool)
        case null

        /// The kind of value in the words a message uses: "a string", "an array".
        package var kindDescription: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .integer, .number: return "a number"
            case .bool: return "a boolean"
            case .null: return "null"
            }
        }
    }

    /// One `"key": value` pair of an object, in the order written.
    package struct Member: Sendable, Equatable {
        package var key: String
        package var keyPosition: JSONPosition
        package var value: JSONNode
    }

    package var value: Value
    package var position: JSONPosition

    /// The kind of value in the words a message uses: "a string", "an array".
    package var kindDescription: String { value.kindDescription }

    /// The value of `key` when this is an object holding it. Objects hold a handful of keys,
    /// so a linear search beats building a dictionary; the parser refused duplicate keys, so
    /// the first match is the only one.
    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }
}

/// Why a JSON text does not parse, and where: line and column for people, the byte offset
/// for binary contexts (a manifest inside an archive).
package struct JSONSyntaxError: Error, Sendable, Equatable {
    package var message: String
    package var position: JSONPosition
    package var offset: Int
}

/// A strict RFC 8259 parser for text that may be hostile: it records the position of every
/// value and key, refuses a key given twice in one object (so a document cannot say two
/// things under one name), and bounds nesting so deep input is refused at once instead of
/// exhausting the stack. The input size is bounded by the caller.
package struct JSONParser {
    /// The nesting allowed when the caller names no other.
    package static let maximumDepth = 200

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0
    private var line = 1
    private var lineStart = 0

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one JSON document nested at most `maxDepth` levels; a UTF-8 byte-order mark at
    /// the start is allowed, anything but whitespace after the value is not.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = maximumDepth) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.index = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        let node = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return node
    }

    private var position: JSONPosition { JSONPosition(line: line, column: index - lineStart + 1) }

    private func error(_ message: String, at position: JSONPosition? = nil, offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position ?? self.position, offset: offset ?? index)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "character '\(Character(UnicodeScalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = position
        guard index < bytes.count else { throw error("unexpected end of file: a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
            return JSONNode(value: .object(try parseObject(depth: depth + 1)), position: start)
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw error("nested deeper than \(maxDepth) levels") }
            return JSONNode(value: .array(try parseArray(depth: depth + 1)), position: start)
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try parseString()), position: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return JSONNode(value: .bool(true), position: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return JSONNode(value: .bool(false), position: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return JSONNode(value: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: try parseNumber(), position: start)
        default:
            throw error("unexpected \(describeCurrent()): expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let start = position
        let startOffset = index
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("invalid literal: expected '\(word)'", at: start, offset: startOffset)
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> [JSONNode.Member] {
        index += 1  // {
        var members: [JSONNode.Member] = []
        var keys: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}"), !members.isEmpty {
                    throw error("trailing comma before '}'")
                }
                throw error("unexpected \(describeCurrent()): expected a key in double quotes")
            }
            let keyPosition = position
            let keyOffset = index
            let key = try parseString()
            // Objects of a few keys (every one flowpkg reads) are checked by a linear search;
            // a set is built only for larger ones.
            let repeated: Bool
            if members.count < 8 {
                repeated = members.contains { $0.key == key }
            } else {
                if keys.isEmpty { keys = Set(members.map(\.key)) }
                repeated = !keys.insert(key).inserted
            }
            if repeated {
                throw error("the key \"\(key)\" appears twice in one object", at: keyPosition, offset: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()): expected ':' after the key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file: expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            } else {
                throw error("unexpected \(describeCurrent()): expected ',' or '}' after the value of \"\(key)\"")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [JSONNode] {
        index += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]"), !elements.isEmpty {
                throw error("trailing comma before ']'")
            }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file: expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return elements
            } else {
                throw error("unexpected \(describeCurrent()): expected ',' or ']' in the array")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        let startOffset = index
        index += 1  // opening quote
        // Most strings (every name, path and digest flowpkg writes) hold no escape: find the
        // closing quote and make the string from that slice, with no byte-by-byte copy.
        var end = index
        var ascii = true
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { ascii = false }
            if byte == UInt8(ascii: "\"") {
                let first = index
                let text = bytes.withUnsafeBufferPointer { buffer -> String? in
                    let slice = UnsafeBufferPointer(rebasing: buffer[first..<end])
                    // ASCII needs no validation (and `decoding` has a fast path for it).
                    return ascii ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
                }
                index = end + 1
                guard let text else { throw error("the string is not valid UTF-8", at: start, offset: startOffset) }
                return text
            }
            end += 1
        }
        var scalars = Array(bytes[index..<end])
        index = end
        while true {
            guard index < bytes.count else {
                throw error("unterminated string: the closing '\"' is missing", at: start, offset: startOffset)
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error("the string is not valid UTF-8", at: start, offset: startOffset)
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else {
                    throw error("unterminated string: the closing '\"' is missing", at: start, offset: startOffset)
                }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"): scalars.append(contentsOf: try parseUnicodeEscape())
                default:
                    index -= 2
                    throw error("invalid escape '\\\(Character(UnicodeScalar(escape)))' in a string")
                }
            case 0x00..<0x20:
                throw error("a control character (newline, tab...) inside a string must be escaped")
            default:
                scalars.append(byte)
                index += 1
            }
        }
    }

    /// Reads the hex digits after `\u` (and a low surrogate after a high one) as UTF-8 bytes.
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) -> [UInt8] {
        let escapeStart = JSONPosition(line: line, column: index - 2 - lineStart + 1)
        let escapeOffset = index - 2
        var value = try readHex4(escapeStart, escapeOffset)
        if (0xD800..<0xDC00).contains(value) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw error(
                    "a \\u escape for a high surrogate must be followed by a low one", at: escapeStart,
                    offset: escapeOffset)
            }
            index += 2
            let low = try readHex4(escapeStart, escapeOffset)
            guard (0xDC00..<0xE000).contains(low) else {
                throw error(
                    "a \\u escape for a high surrogate must be followed by a low one", at: escapeStart,
                    offset: escapeOffset)
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(value) {
            throw error("a lone low surrogate in a \\u escape", at: escapeStart, offset: escapeOffset)
        }
        // Surrogates were refused or combined above, so `value` is a scalar.
        guard let scalar = UnicodeScalar(value) else {
            throw error("\\u escape \(value) is not a Unicode scalar", at: escapeStart, offset: escapeOffset)
        }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func readHex4(_ escapeStart: JSONPosition, _ escapeOffset: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
                throw error("a \\u escape needs four hex digits", at: escapeStart, offset: escapeOffset)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONNode.Value {
        let start = index
        let startPosition = position
        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        guard isDigit(index) else {
            throw error("invalid number: a digit must follow '-'", at: startPosition, offset: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("invalid number: no leading zeros", at: startPosition, offset: start) }
        } else {
            while isDigit(index) { index += 1 }
        }
        let digitsEnd = index
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard isDigit(index) else {
                throw error("invalid number: a digit must follow '.'", at: startPosition, offset: start)
            }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else {
                throw error("invalid number: a digit must follow the exponent", at: startPosition, offset: start)
            }
            while isDigit(index) { index += 1 }
        }
        if isInteger {
            // Accumulated as a negative number so Int64.min fits; an overflow makes it a Double.
            var value: Int64 = 0
            var overflow = false
            for byte in bytes[digitsStart..<digitsEnd] {
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = shifted.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                if overflow1 || overflow2 { overflow = true; break }
                value = next
            }
            if !overflow {
                if negative { return .integer(value) }
                if value != .min { return .integer(-value) }
            }
        }
        return .number(Double(String(decoding: bytes[start..<index], as: UTF8.self)) ?? .infinity)
    }
}
