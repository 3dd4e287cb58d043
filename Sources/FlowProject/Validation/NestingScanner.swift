/// Finds where Lua code nests deepest.
///
/// Lua 5.4 reports nesting past its limit as a bare `C stack overflow`, with no line; this
/// scan gives the diagnostic a place. It counts brackets and block keywords (`function`, `if`,
/// `do`, `repeat` against `end`, `until`) and skips strings and comments; an approximation good
/// enough to point at the deep spot, never used to decide whether the code is valid.
enum NestingScanner {
    static func deepestPlace(in source: UnsafeRawBufferPointer) -> (line: Int, column: Int)? {
        var depth = 0
        var deepest = 0
        var place: (line: Int, column: Int)?
        var line = 1
        var lineStart = 0
        var index = 0
        let count = source.count
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57) || byte == 95
        }
        /// Length of a long bracket opener `[==[` at `at`, or nil.
        func longBracket(at start: Int) -> Int? {
            var i = start + 1
            while i < count, source[i] == UInt8(ascii: "=") { i += 1 }
            return i < count && source[i] == UInt8(ascii: "[") ? i - start - 1 : nil
        }
        func skipLong(level: Int) {
            while index < count {
                if source[index] == 0x0A { line += 1; lineStart = index + 1 }
                if source[index] == UInt8(ascii: "]") {
                    var i = index + 1, equals = 0
                    while i < count, source[i] == UInt8(ascii: "=") { i += 1; equals += 1 }
                    if equals == level, i < count, source[i] == UInt8(ascii: "]") { index = i + 1; return }
                }
                index += 1
            }
        }
        while index < count {
            let byte = source[index]
            switch byte {
            case 0x0A:
                line += 1
                index += 1
                lineStart = index
            case UInt8(ascii: "-") where index + 1 < count && source[index + 1] == UInt8(ascii: "-"):
                index += 2
                if index < count, source[index] == UInt8(ascii: "["), let level = longBracket(at: index) {
                    index += level + 2
                    skipLong(level: level)
                } else {
                    while index < count, source[index] != 0x0A { index += 1 }
                }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
                while index < count, source[index] != byte, source[index] != 0x0A {
                    index += source[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            case UInt8(ascii: "["):
                if let level = longBracket(at: index) {
                    index += level + 2
                    skipLong(level: level)
                } else {
                    depth += 1
                    if depth > deepest { deepest = depth; place = (line, index - lineStart + 1) }
                    index += 1
                }
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                depth += 1
                if depth > deepest { deepest = depth; place = (line, index - lineStart + 1) }
                index += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                index += 1
            case _ where isWordByte(byte):
                let start = index
                while index < count, isWordByte(source[index]) { index += 1 }
                switch String(decoding: UnsafeRawBufferPointer(rebasing: source[start..<index]), as: UTF8.self) {
                case "function", "if", "do", "repeat":
                    depth += 1
                    if depth > deepest { deepest = depth; place = (line, start - lineStart + 1) }
                case "end", "until":
                    depth = max(0, depth - 1)
                default:
                    break
                }
            default:
                index += 1
            }
        }
        return place
    }
}
