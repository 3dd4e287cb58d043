/// Text from a client made safe for one line of a log read on a terminal.
enum LogText {
    /// `text` with every control or formatting character written as an escape, so a client
    /// cannot end the line (and forge the next), colour or move the terminal's cursor, or
    /// reorder what follows with bidirectional overrides: a newline shows as `\n`, ESC as
    /// `\x1b`, U+202E as `\u{202e}`; a backslash doubles, so an escape in the text cannot pass
    /// for one written here.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control where scalar.value < 0x80:
                    result += "\\x" + hex(scalar.value, width: 2)
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate:
                    result += "\\u{" + hex(scalar.value, width: 1) + "}"
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }
}
