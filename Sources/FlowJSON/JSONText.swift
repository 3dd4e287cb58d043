/// JSON text written by hand, where key order and exact bytes matter (manifests, command output,
/// flowpkg.json edited in place): the one JSON string writer.
public enum JSONText {
    /// A JSON string literal (RFC 8259, section 7): quotation mark, reverse solidus and the
    /// control characters U+0000 to U+001F escaped, as the RFC requires, and DEL (U+007F) too,
    /// which it allows, so no invisible character reaches a terminal or a diff; everything
    /// else as UTF-8, so names in any script stay readable. A package's manifest has always been
    /// written so, and its digest depends on these bytes.
    public static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
