/// JSON text written by hand, where key order and exact bytes matter (manifests, command output,
/// flowpkg.json edited in place): the one JSON string writer.
public enum JSONText {
    /// A JSON string literal (RFC 8259, section 7): quotation mark, reverse solidus and the
    /// control characters U+0000 to U+001F escaped, as the RFC requires, and DEL (U+007F) too,
    /// which it allows, so no invisible character reaches a terminal or a diff; everything
    /// else as UTF-8, so names in any script stay readable. A package's manifest has always been
    /// written so, and its digest depends on these bytes.
    public static func quoted(_ value: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count + 2)
        appendQuoted(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` as a JSON string literal (as `quoted` writes it) to `bytes`.
    public static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        bytes.append(0x22)
        for byte in value.utf8 {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x09: bytes += [0x5C, 0x74]
            case 0..<0x20, 0x7F: bytes += [0x5C, 0x75, 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }
}
