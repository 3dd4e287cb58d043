/// A short string literal's text in the quotes `quote_style` asks for, with its escapes
/// rewritten only where the quotes require (StyLua's rule: the quote the text holds fewer of).
enum StringQuotes {
    static func requote(_ literal: String, style: FormatOptions.QuoteStyle) -> String {
        let bytes = Array(literal.utf8)
        guard let first = bytes.first, first == 34 || first == 39, bytes.count >= 2 else { return literal }
        let body = bytes[1..<(bytes.count - 1)]
        let quote: UInt8
        switch style {
        case .forceDouble: quote = 34
        case .forceSingle: quote = 39
        case .autoPreferDouble, .autoPreferSingle:
            let doubles = body.filter { $0 == 34 }.count, singles = body.filter { $0 == 39 }.count
            if doubles == singles {
                quote = style == .autoPreferDouble ? 34 : 39
            } else {
                quote = doubles > singles ? 39 : 34
            }
        }
        var out: [UInt8] = [quote]
        out.reserveCapacity(bytes.count + 4)
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
