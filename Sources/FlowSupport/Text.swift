#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Replacements for the Foundation string APIs that FoundationEssentials leaves out (they need
// ICU): what the targets use, with Foundation's results for those uses.

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (tab and the Unicode space separators, not newlines).
    package func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension String {
    /// The text safe inside an HTML or XML element or a quoted attribute (`&`, `<`, `>`, `"`, `'`
    /// escaped): the session page's, JUnit reports' and coverage pages' one escaper.
    package var markupEscaped: String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Text formatted as C's `printf` formats it, for numeric conversions (`%g`, `%.1f`,
    /// `%02x`, `%3d`): what Foundation's `String(format:)` gives for them.
    package init(printf format: String, _ arguments: any CVarArg...) {
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return String(cString: buffer) }
            buffer = [CChar](repeating: 0, count: needed + 1)
            return withVaList(arguments) { again in
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return String(cString: buffer)
            }
        }
    }

    /// The text padded with spaces at the end to `width` characters (never cut).
    package func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}

extension String {
    /// The text with every occurrence of `target` replaced: Foundation's
    /// `replacingOccurrences(of:with:)`, which compares code units, not characters ("\r" is
    /// found inside "\r\n"), and leaves the text alone for an empty target.
    package func replacingAll(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), needle = Array(target.utf8), substitute = Array(replacement.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return self }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == needle[0], index + needle.count <= bytes.count,
                bytes[index..<index + needle.count].elementsEqual(needle)
            {
                result += substitute
                index += needle.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The last place `target` occurs in the text (Foundation's `range(of:options: .backwards)`).
    package func lastRange(of target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var found: Range<Index>?
        var start = startIndex
        while let range = self[start...].firstRange(of: target) {
            found = range
            start = index(after: range.lowerBound)
        }
        return found
    }

    /// A count with a comma every three digits ("1,234"), as en_US writes it.
    package init(grouping number: Int) {
        let digits = String(number.magnitude)
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        self = number < 0 ? "-" + grouped : grouped
    }
}

extension Sequence<UInt8> {
    /// The bytes in lower-case hexadecimal, two digits a byte (a digest, a token): what
    /// `map { String(format: "%02x", $0) }.joined()` gave.
    package var hexDigits: String { Array(self).hexDigits }
}

extension Array<UInt8> {
    /// `Sequence.hexDigits` for an array, the one that writes them: the digits go straight
    /// into the string's storage (a digest's hex is made at every module a launch loads; the
    /// generic loop, unspecialised across modules, took about 1 µs of it:
    /// Benchmarks/README.md, host_launch).
    package var hexDigits: String {
        let digits: StaticString = "0123456789abcdef"
        return digits.withUTF8Buffer { digits in
            String(unsafeUninitializedCapacity: count * 2) { text in
                var at = 0
                for byte in self {
                    text[at] = digits[Int(byte >> 4)]
                    text[at + 1] = digits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    /// Whether `text` is exactly these bytes' `hexDigits` (lower case), compared without
    /// making that text: a digest checked against the one a manifest lists, at every launch.
    package func hasHexDigits(_ text: String) -> Bool {
        let digits: StaticString = "0123456789abcdef"
        return digits.withUTF8Buffer { digits in
            var text = text
            return text.withUTF8 { text in
                guard text.count == count * 2 else { return false }
                var at = 0
                for byte in self {
                    guard text[at] == digits[Int(byte >> 4)], text[at + 1] == digits[Int(byte & 0x0F)] else {
                        return false
                    }
                    at += 2
                }
                return true
            }
        }
    }
}

extension StringProtocol {
    /// The text with `%XX` escapes decoded, or nil when an escape is malformed or the bytes
    /// are not UTF-8: Foundation's `removingPercentEncoding`.
    package var percentDecoded: String? {
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(digit), let low = iterator.next().flatMap(digit) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

extension String {
    /// The template with each `{{key}}` replaced by its value (an unknown key by nothing), in one
    /// pass: a value is never searched for keys itself. The one filler of the HTML kept in
    /// resource files (the session page, the coverage report).
    package func filled(_ values: [String: String]) -> String {
        var out = ""
        var rest = self[...]
        while let open = rest.firstRange(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let key = String(rest[open.upperBound..<close.lowerBound])
            out += values[key] ?? ""
            rest = rest[close.upperBound...]
        }
        return out + rest
    }
}
