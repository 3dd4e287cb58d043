import FlowAnalysis
import FlowDiagnostics

/// luacheck's inline options, for the lint classes: `-- luacheck: ignore 212`, `ignore
/// 212/self`, `ignore` alone, `no unused`, `no unused args`, `no self`, `no max line length`,
/// `max line length N`, `globals name`, and `push` / `pop`.
///
/// As luacheck has them: at the end of a line of code, an option covers that line; alone on its
/// line, the rest of the file, or up to the `pop` that closes a `push` before it.
struct LuacheckComments {
    /// Where a set of patterns is ignored, lines `from...to`.
    struct Range {
        var from: Int
        var to: Int
        var patterns: [String]
        /// A longer line length allowed (`max line length 180`), nil for none.
        var lineLength: Int?
    }

    var ranges: [Range] = []

    /// The options of a file's comments.
    init(source: [UInt8]) {
        var open: [[Int]] = [[]]  // per push level: indices of ranges still open
        var line = 1
        var index = 0
        let count = source.count
        let marker = Array("luacheck:".utf8)
        var lineStart = 0
        while index < count {
            let byte = source[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "l"), index + marker.count <= count,
                source[index..<(index + marker.count)].elementsEqual(marker)
            else {
                index += 1
                continue
            }
            var before = index - 1
            while before >= lineStart, source[before] == 0x20 || source[before] == 0x09 { before -= 1 }
            guard before - 1 >= lineStart, source[before] == UInt8(ascii: "-"), source[before - 1] == UInt8(ascii: "-")
            else {
                index += marker.count
                continue
            }
            var isAlone = true
            var scan = before - 2
            while scan >= lineStart {
                if source[scan] != 0x20 && source[scan] != 0x09 && source[scan] != UInt8(ascii: "-") {
                    isAlone = false
                    break
                }
                scan -= 1
            }
            var lineEnd = index
            while lineEnd < count, source[lineEnd] != 0x0A, source[lineEnd] != 0x0D { lineEnd += 1 }
            let text = String(decoding: source[(index + marker.count)..<lineEnd], as: UTF8.self)
            for option in text.split(separator: ",") {
                var words = option.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                if words.first == "push" {
                    open.append([])
                    words.removeFirst()
                } else if words.first == "pop" {
                    if open.count > 1 {
                        for range in open.removeLast() { ranges[range].to = line }
                    }
                    continue
                }
                guard let (patterns, length) = Self.meaning(of: words) else { continue }
                ranges.append(Range(from: line, to: isAlone ? Int.max : line, patterns: patterns, lineLength: length))
                if isAlone { open[open.count - 1].append(ranges.count - 1) }
            }
            index = lineEnd
        }
    }

    /// The warning patterns an option ignores, and a line length it allows.
    static func meaning(of words: [String]) -> ([String], Int?)? {
        guard let first = words.first else { return nil }
        switch first {
        case "ignore":
            return (words.count == 1 ? [""] : Array(words.dropFirst()), nil)
        case "no":
            switch words.dropFirst().joined(separator: " ") {
            case "unused": return (["21", "22", "23", "24", "31"], nil)
            case "unused args", "unused arguments": return (["212", "213"], nil)
            case "self": return (["212/self", "432/self"], nil)
            case "max line length", "max code line length", "max string line length", "max comment line length":
                return (["631"], nil)
            case "redefined": return (["41", "42", "43"], nil)
            case "unused globals": return (["131"], nil)
            default: return nil
            }
        case "max", "max_line_length", "max_code_line_length", "max_string_line_length", "max_comment_line_length":
            guard let length = words.last.flatMap({ Int($0) }) else { return nil }
            return ([], length)
        case "globals", "read", "new":
            let names = words.dropFirst().filter { $0 != "globals" && $0 != "read" }
            return (names.map { "1/" + $0 }, nil)
        default:
            return nil
        }
    }

    /// Whether luacheck's options here leave out a warning (`number`, about `name`) at `line`.
    func ignores(_ number: Int, name: String, line: Int, message: String) -> Bool {
        let code = String(number)
        for range in ranges where range.from <= line && line <= range.to {
            if range.patterns.contains(where: { $0.isEmpty || LintOptions.matches($0, code: code, name: name) }) {
                return true
            }
            if number == 631, let allowed = range.lineLength, let length = Self.lineLength(in: message),
                length <= allowed
            {
                return true
            }
        }
        return false
    }

    /// `line is too long (133 > 120)` -> 133.
    static func lineLength(in message: String) -> Int? {
        guard let open = message.firstIndex(of: "("), let end = message[open...].firstIndex(of: " ") else { return nil }
        return Int(message[message.index(after: open)..<end])
    }

    /// The name a lint message is about: its first quoted word (`unused argument 'self'`), or
    /// for a field of a global, the global's, as luacheck names it (`122/debug`).
    static func name(in message: String) -> String {
        if let global = message.firstRange(of: " of global '") {
            return String(message[global.upperBound...].prefix { $0 != "'" })
        }
        guard let open = message.firstIndex(of: "'") else { return "" }
        let rest = message[message.index(after: open)...]
        guard let close = rest.firstIndex(of: "'") else { return "" }
        return String(rest[..<close])
    }

    /// The luacheck number of a lint code, nil for another code.
    static let numbers: [String: Int] = {
        var numbers: [String: Int] = [:]
        for (number, code) in DiagnosticCodes.byLuacheckNumber where number != 113 { numbers[code.code] = number }
        return numbers
    }()
}
