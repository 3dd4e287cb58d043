import LuaSyntax

/// Formats Lua 5.4 source as StyLua does for the same options.
package enum LuaFormat {
    /// The formatted text of `source`; throws its syntax error, unchanged.
    package static func format(_ source: [UInt8], options: FormatOptions = FormatOptions()) throws(LuaSyntaxError)
        -> [UInt8]
    {
        let tree = try LuaParser.parse(source)
        let stream = try LuaTokenStream(source: source)
        var formatter = LuaFormatter(tree: tree, stream: stream, options: options)
        var doc = formatter.block(tree.root)
        precondition(formatter.kind == .eof, "formatter out of step at the end of the chunk")
        let newline = options.lineEndings == .unix ? "\n" : "\r\n"
        var printer = DocPrinter(
            width: options.columnWidth, indentUnit: options.indentUnit, indentColumns: options.indentColumns,
            newline: newline)
        if case .concat(let parts, _) = doc, parts.isEmpty {
            doc = .empty
        } else {
            doc = .concat([doc, .hardLine])
        }
        var output = stream.prelude.isEmpty ? [] : stream.prelude + Array(newline.utf8)
        output += printer.print(doc)
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
