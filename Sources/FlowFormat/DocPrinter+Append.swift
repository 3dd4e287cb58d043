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
        var commands = spare
        spare = []
        commands.append(Command(indent: indent, mode: .broken, doc: doc))
        while let command = commands.popLast() {
            step(command, &commands)
        }
        spare = commands
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
