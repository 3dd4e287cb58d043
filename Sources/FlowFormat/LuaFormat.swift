import LuaSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Formats Lua 5.4 source as StyLua does for the same options.
package enum LuaFormat {
    /// The formatted text of `source`; throws its syntax error, unchanged. With `range` (byte
    /// offsets), only the top-level statements that meet it are formatted.
    package static func format(
        _ source: [UInt8], options: FormatOptions = FormatOptions(), range: Range<Int>? = nil
    ) throws(LuaSyntaxError) -> [UInt8] {
        if options.sortRequires && range == nil {
            var layout = options
            layout.sortRequires = false
            return try format(sortingRequires(source), options: layout)
        }
        let (tree, stream) = try LuaParser.parseWithTokens(source, internsNames: false)
        let newline = options.lineEndings == .unix ? "\n" : "\r\n"
        var printer = DocPrinter(
            width: options.columnWidth, indentUnit: options.indentUnit, indentColumns: options.indentColumns,
            newline: newline)
        printer.source = stream.source
        var formatter = LuaFormatter(tree: tree, stream: stream, options: options)
        formatter.range = range
        var body: [UInt8]
        if formatter.canEmit {
            // Each statement printed as it is formatted (LuaFormatter+Emission).
            // Sized in place: sized before the copy, the output's buffer would be shared with
            // the local printer, and the first append would copy it without its capacity.
            formatter.printer = printer
            formatter.printer!.begin(capacity: source.count + source.count / 4)
            _ = formatter.block(tree.root, emitting: true)
            precondition(formatter.kind == .eof, "formatter out of step at the end of the chunk")
            formatter.printer!.append(.hardLine, indent: 0)
            body = formatter.printer!.finish()
        } else {
            let doc = formatter.block(tree.root)
            precondition(formatter.kind == .eof, "formatter out of step at the end of the chunk")
            body = printer.print(.concat([doc, .hardLine]), capacity: source.count + source.count / 4)
        }
        if body.allSatisfy({ $0 == 10 || $0 == 13 || $0 == 32 || $0 == 9 }) { body = [] }
        if stream.preludeEnd == 0 { return lineEndings(body, windows: options.lineEndings == .windows) }
        var output: [UInt8] = []
        if !stream.prelude.isEmpty {
            output = stream.prelude + Array(newline.utf8)
            // A blank line after `#!...` stays.
            if case .newlines(let count) = stream.trivia(before: 0).first, count >= 2, !body.isEmpty {
                output += Array(newline.utf8)
            }
        }
        output += body
        return lineEndings(output, windows: options.lineEndings == .windows)
    }

    /// The layout of `source` (not printed) and its token stream.
    static func layout(_ source: [UInt8], options: FormatOptions, range: Range<Int>?) throws(LuaSyntaxError) -> (
        Doc, LuaTokenStream
    ) {
        let (tree, stream) = try LuaParser.parseWithTokens(source, internsNames: false)
        var formatter = LuaFormatter(tree: tree, stream: stream, options: options)
        formatter.range = range
        let doc = formatter.block(tree.root)
        precondition(formatter.kind == .eof, "formatter out of step at the end of the chunk")
        return (doc, stream)
    }

    /// Builds the layout of `source` and drops it unprinted; whether it must break. What
    /// formatting costs before printing, for the benchmark's floor rows (Benchmarks/fmt-floor.swift).
    package static func layoutOnly(_ source: [UInt8], options: FormatOptions = FormatOptions())
        throws(LuaSyntaxError) -> Bool
    {
        try layout(source, options: options, range: nil).0.isHard
    }

    /// `source` with StyLua's `sort_requires` applied to its top-level block.
    static func sortingRequires(_ source: [UInt8]) throws(LuaSyntaxError) -> [UInt8] {
        let (tree, stream) = try LuaParser.parseWithTokens(source, internsNames: false)
        return RequireSorting.sorted(source, tree: tree, stream: stream)
    }

    /// Every line break as `options` wants it, in comments and long strings too (Lua reads
    /// `\r\n` in a long string as `\n`, so the meaning stays).
    static func lineEndings(_ text: [UInt8], windows: Bool) -> [UInt8] {
        // memchr: `contains` read the whole output a byte at a time (0.8% of formatting).
        let hasReturn = text.withUnsafeBufferPointer {
            $0.baseAddress.map { memchr($0, 13, text.count) != nil } ?? false
        }
        guard hasReturn || windows else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.count + text.count / 20)
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == 13 && index + 1 < text.count && text[index + 1] == 10 {
                index += 1
                continue
            }
            if byte == 10 && windows { output.append(13) }
            output.append(byte)
            index += 1
        }
        return output
    }
}

extension LuaTokenStream {
    /// The byte order mark and `#` first line, as they are (without the line break).
    var prelude: [UInt8] {
        var end = preludeEnd
        while end > 0, source[end - 1] == 10 || source[end - 1] == 13 { end -= 1 }
        return Array(source[0..<end])
    }
}
