/// A template file's text (or file name) parsed as the part of Mustache templates use:
/// variables (`{{name}}`, `{{{name}}}`, `{{&name}}`), sections (`{{#name}}…{{/name}}`),
/// inverted sections (`{{^name}}…{{/name}}`), comments (`{{! … }}`) and set-delimiter tags
/// (`{{=<% %>=}}`), with the Mustache spec's standalone-line rule. Nothing is HTML-escaped:
/// these are source files, not web pages.
///
/// Written by hand rather than with swift-mustache, which imports Foundation: in the static
/// Linux flowpkg its NSLock alone links Foundation, FoundationInternationalization and ICU's
/// data. Measured on one machine, a static program doing nothing but lock an NSLock is 70.2 MB
/// with ICU's `icudt76_dat`; with FoundationEssentials alone it is 20.7 MB and has none.
/// Partials, inheritance, lambdas, transforms and pragmas are refused with a parse error.
struct TemplateText {
    enum Node {
        case text(String)
        case variable(String)
        case section(String, [Node], inverted: Bool)
    }

    /// What went wrong while parsing, and where (1-based line and column of the tag).
    struct ParseError: Error, Equatable {
        enum Problem: Equatable {
            case sectionCloseNameIncorrect
            case unfinishedName
            case expectedSectionEnd
            case invalidSetDelimiter
            case unsupported(String)
        }
        var problem: Problem
        var line: Int
        var column: Int
    }

    let nodes: [Node]

    /// Parses `text`; throws the first problem met.
    init(_ text: String) throws(ParseError) {
        var parser = Parser(bytes: Array(text.utf8))
        nodes = try parser.parse()
    }

    /// The text with every tag filled from `value` (nil: no such value, so empty text and a
    /// section not rendered). `{{.}}` inside a section is the section's value.
    func render(_ value: (String) -> String?) -> String {
        var output = ""
        Self.render(nodes, current: nil, value: value, into: &output)
        return output
    }

    private static func render(_ nodes: [Node], current: String?, value: (String) -> String?, into output: inout String)
    {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let name):
                output += lookUp(name, current: current, value: value) ?? ""
            case .section(let name, let body, let inverted):
                let found = lookUp(name, current: current, value: value)
                if inverted {
                    if found == nil { render(body, current: current, value: value, into: &output) }
                } else if let found {
                    render(body, current: found, value: value, into: &output)
                }
            }
        }
    }

    /// A name's value: `.` is the enclosing section's; `a.b` looks `a` up, and a text value
    /// has no members, so it is nil whenever there is a dot.
    private static func lookUp(_ name: String, current: String?, value: (String) -> String?) -> String? {
        if name == "." { return current }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty else { return nil }
        let found = value(String(first))
        return parts.count == 1 ? found : nil
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)
        /// Where the current line starts, and whether a tag already stands on it (a line with
        /// two tags is not standalone).
        var lineStart = 0
        var tagOnLine = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func parse() throws(ParseError) -> [Node] {
            var stack: [(name: String, inverted: Bool, nodes: [Node], tag: Int)] = []
            var nodes: [Node] = []
            var pending: [UInt8] = []
            func flush() {
                if !pending.isEmpty { nodes.append(.text(String(decoding: pending, as: UTF8.self))) }
                pending = []
            }
            while position < bytes.count {
                guard let tag = find(open, from: position) else {
                    take(position..<bytes.count, into: &pending)
                    position = bytes.count
                    break
                }
                take(position..<tag, into: &pending)
                let (kind, content, tagEnd, standalone) = try readTag(at: tag)

                switch kind {
                case UInt8(ascii: "!"):
                    break
                case UInt8(ascii: "="):
                    let parts = content.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
                    guard parts.count == 2, !parts.contains(where: { $0.contains(UInt8(ascii: "=")) }) else {
                        throw error(.invalidSetDelimiter, at: tag)
                    }
                    open = Array(parts[0])
                    close = Array(parts[1])
                case UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "$"):
                    throw error(.unsupported("partials and inheritance are not supported in templates"), at: tag)
                case UInt8(ascii: "%"):
                    throw error(.unsupported("pragmas are not supported in templates"), at: tag)
                default:
                    let name = try self.name(content, at: tag)
                    if standalone { pending.removeSubrange(max(0, pending.count - (tag - lineStart))...) }
                    switch kind {
                    case UInt8(ascii: "#"), UInt8(ascii: "^"):
                        flush()
                        stack.append((name, kind == UInt8(ascii: "^"), nodes, tag))
                        nodes = []
                    case UInt8(ascii: "/"):
                        guard let opened = stack.last, opened.name == name else {
                            throw error(.sectionCloseNameIncorrect, at: tag)
                        }
                        flush()
                        stack.removeLast()
                        let body = nodes
                        nodes = opened.nodes
                        nodes.append(.section(name, body, inverted: opened.inverted))
                    default:
                        flush()
                        nodes.append(.variable(name))
                    }
                    finish(tag: tagEnd, standalone: standalone)
                    continue
                }
                if standalone { pending.removeSubrange(max(0, pending.count - (tag - lineStart))...) }
                finish(tag: tagEnd, standalone: standalone)
            }
            flush()
            if let unclosed = stack.last { throw error(.expectedSectionEnd, at: unclosed.tag) }
            return nodes
        }

        /// The tag opening at `tag`: its kind (its sigil, 0 for a variable), its content, where
        /// it ends, and whether it stands alone on its line (so its line goes with it).
        private func readTag(at tag: Int) throws(ParseError) -> (
            kind: UInt8, content: [UInt8], end: Int, standalone: Bool
        ) {
            var cursor = tag + open.count
            let sigil: UInt8? = cursor < bytes.count ? bytes[cursor] : nil
            let kind: UInt8
            switch sigil {
            case let sigil?
            where Array("#^/!={&><$%".utf8).contains(sigil):
                kind = sigil
                cursor += 1
            default:
                kind = 0
            }
            // The tag's content and where the tag ends.
            let end: [UInt8]
            switch kind {
            case UInt8(ascii: "{"): end = Array("}".utf8) + close
            case UInt8(ascii: "="): end = Array("=".utf8) + close
            default: end = close
            }
            guard let contentEnd = find(end, from: cursor) else {
                throw error(kind == UInt8(ascii: "=") ? .invalidSetDelimiter : .unfinishedName, at: tag)
            }
            let content = Array(bytes[cursor..<contentEnd])
            let tagEnd = contentEnd + end.count

            let standalone: Bool
            switch kind {
            case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "="):
                standalone = !tagOnLine && isBlank(lineStart..<tag) && restOfLineIsBlank(from: tagEnd) != nil
            default:
                standalone = false
            }
            return (kind, content, tagEnd, standalone)
        }

        /// Moves past a tag; a standalone one takes the rest of its line, newline included.
        private mutating func finish(tag end: Int, standalone: Bool) {
            if standalone, let next = restOfLineIsBlank(from: end) {
                position = next
                lineStart = next
                tagOnLine = false
            } else {
                position = end
                tagOnLine = true
            }
        }

        /// Appends text, noting where the last line in it starts.
        private mutating func take(_ range: Range<Int>, into pending: inout [UInt8]) {
            pending += bytes[range]
            if let newline = bytes[range].lastIndex(of: 0x0A) {
                lineStart = newline + 1
                tagOnLine = false
            }
        }

        private func name(_ content: [UInt8], at tag: Int) throws(ParseError) -> String {
            let trimmed = content.drop(while: { $0 == 0x20 || $0 == 0x09 }).reversed()
                .drop(while: { $0 == 0x20 || $0 == 0x09 }).reversed()
            if trimmed.isEmpty || trimmed.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A }) {
                throw error(.unfinishedName, at: tag)
            }
            if trimmed.contains(UInt8(ascii: "(")) {
                throw error(.unsupported("transforms such as uppercased(name) are not supported in templates"), at: tag)
            }
            return String(decoding: trimmed, as: UTF8.self)
        }

        private func isBlank(_ range: Range<Int>) -> Bool {
            range.lowerBound <= range.upperBound && bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 }
        }

        /// Where the next line starts when only spaces and tabs (and a CR before the LF) follow
        /// `start` on its line; the end of the text counts as a line end.
        private func restOfLineIsBlank(from start: Int) -> Int? {
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09: index += 1
                case 0x0A: return index + 1
                case 0x0D where index + 1 < bytes.count && bytes[index + 1] == 0x0A: return index + 2
                default: return nil
                }
            }
            return index
        }

        private func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
            var index = start
            while index + needle.count <= bytes.count {
                if bytes[index] == needle[0] && bytes[index..<index + needle.count].elementsEqual(needle) {
                    return index
                }
                index += 1
            }
            return nil
        }

        private func error(_ problem: ParseError.Problem, at offset: Int) -> ParseError {
            let before = bytes[..<offset]
            let line = before.lazy.filter { $0 == 0x0A }.count + 1
            let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
            let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
            return ParseError(problem: problem, line: line, column: column)
        }
    }
}
