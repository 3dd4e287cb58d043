/// Printing a layout a part at a time, into one output: what `LuaFormatter` does for the
/// statements outside expressions (LuaFormatter+Emission); and the source's slices.
extension DocPrinter {
    /// Starts printing straight into the output, a piece at a time (`append`, `appendText`):
    /// what `LuaFormatter` does for statements outside expressions (LuaFormatter+Emission).
    mutating func begin(capacity: Int) {
        output = []
        output.reserveCapacity(capacity)
        column = 0
    }

    /// Prints `doc` at indentation `indent` after what is printed so far. Printing a layout's
    /// parts one after another gives what printing them together gives when nothing after a
    /// part is measured with it: a group looks ahead only to the next line break, and every
    /// part appended ends where a line break follows (a statement, a compound statement's
    /// header before its block).
    mutating func append(_ doc: Doc, indent: Int) {
        if case .hardLine = doc, suffixes.isEmpty {
            // The line break between two statements, most of what is appended: as `step` prints it.
            var none: [Command] = []
            breakLine(Command(indent: indent, mode: .broken, doc: doc), &none)
            return
        }
        if suffixes.isEmpty && doc.isPlainText {
            // Text only (a header's keywords and names, nothing to choose): printed in place.
            appendPlain(doc)
            return
        }
        var commands = spare
        spare = []
        commands.append(Command(indent: indent, mode: .broken, doc: doc))
        while let command = commands.popLast() {
            step(command, &commands)
        }
        spare = commands
    }

    /// Prints `doc`, text only (`isPlainText`), as `step` prints each part when no line comment
    /// waits for the end of the line.
    private mutating func appendPlain(_ doc: Doc) {
        switch doc {
        case .text(let string, let width):
            var string = string
            string.withUTF8 { output.append(contentsOf: $0) }
            column += width
        case .slice(let start, let length, let width):
            output.append(contentsOf: source[Int(start)..<Int(start + length)])
            column += width
        case .concat(let parts, _):
            for part in parts { appendPlain(part) }
        default:
            preconditionFailure("appendPlain takes text only")
        }
    }

    /// Prints text without line breaks, `width` columns wide, from its UTF-8 bytes, as `append`
    /// prints `.text` of them.
    mutating func appendText(_ bytes: UnsafeBufferPointer<UInt8>, width: Int, indent: Int) {
        if !suffixes.isEmpty && bytes.contains(where: { $0 != 32 && $0 != 9 })
            && !(bytes.count == 1 && bytes[0] == 44)
        {
            append(.text(String(decoding: bytes, as: UTF8.self), width: width), indent: indent)
            return
        }
        output.append(contentsOf: bytes)
        column += width
    }

    /// What was printed since `begin`, with the comments left at the end of the last line.
    mutating func finish() -> [UInt8] {
        flushSuffixes()
        return output
    }

    /// Prints the source's bytes `range` (a `.slice`), `width` columns wide, as `.text` of them.
    mutating func printSlice(_ range: Range<Int>, width: Int, _ command: Command, _ commands: inout [Command]) {
        let bytes = source[range]
        if !suffixes.isEmpty && !(bytes.count == 1 && bytes.first == 44)
            && bytes.contains(where: { $0 != 32 && $0 != 9 })
        {
            // A line comment ends its line: what follows it in the source follows it here.
            commands.append(command)
            breakLine(Command(indent: command.indent, mode: .broken, doc: .hardLine), &commands)
            return
        }
        output.append(contentsOf: bytes)
        column += width
    }
}

extension Doc {
    /// Whether this is text only: text, source slices and concatenations of them, whatever the
    /// column (a layout without line breaks, groups or comments).
    var isPlainText: Bool {
        switch self {
        case .text, .slice: return true
        case .concat(let parts, _):
            for part in parts where !part.isPlainText { return false }
            return true
        default: return false
        }
    }
}
