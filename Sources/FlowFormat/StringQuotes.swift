/// A short string literal's text in the quotes `quote_style` asks for, with its escapes
/// rewritten only where the quotes require (StyLua's rule: the quote the text holds fewer of).
enum StringQuotes {
    static func requote(_ literal: String, style: FormatOptions.QuoteStyle) -> String {
        let utf8 = literal.utf8
        guard let first = utf8.first, first == 34 || first == 39, utf8.count >= 2 else { return literal }
        var doubles = 0, singles = 0
        for byte in utf8.dropFirst().dropLast() {
            if byte == 34 { doubles += 1 } else if byte == 39 { singles += 1 }
        }
        let quote: UInt8
        switch style {
        case .forceDouble: quote = 34
        case .forceSingle: quote = 39
        case .autoPreferDouble, .autoPreferSingle:
            if doubles == singles {
                quote = style == .autoPreferDouble ? 34 : 39
            } else {
                quote = doubles > singles ? 39 : 34
            }
        }
        // Most strings hold no quote: in the quotes they have, they stay as they are.
        if doubles == 0 && singles == 0 && first == quote { return literal }
        let bytes = Array(utf8)
        let body = bytes[1..<(bytes.count - 1)]
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 4)
        out.append(quote)
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            if byte == 92, index + 1 < body.endIndex {
                let next = body[index + 1]
                if next == 34 || next == 39 {
                    // An escaped quote: escaped only when it is the one around the string.
                    if next == quote { out.append(92) }
                    out.append(next)
                } else {
                    out.append(byte)
                    out.append(next)
                }
                index += 2
                continue
            }
            if byte == quote { out.append(92) }
            out.append(byte)
            index += 1
        }
        out.append(quote)
        return String(decoding: out, as: UTF8.self)
    }
}
