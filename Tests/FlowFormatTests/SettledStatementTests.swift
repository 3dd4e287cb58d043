import FlowTestSupport
import Foundation
import Testing

@testable import FlowFormat

/// The fast path (a statement whose source already is its formatted text is taken as one text,
/// LuaFormatter+SettledStatements) gives the bytes the full path gives: on Debian's Lua code
/// bases with StyLua's defaults and with other options, on the pathological inputs, and on the
/// pairs of tokens it must refuse.
@Suite struct SettledStatementTests {
    static func bothWays(_ source: [UInt8], _ options: FormatOptions = FormatOptions()) throws -> (
        full: [UInt8], fast: [UInt8]
    ) {
        let (off, on) = try FormatBothWays.format(source, options, \.settledStatements)
        return (off, on)
    }

    static func differing(_ files: [String], _ options: FormatOptions) throws -> [String] {
        try FormatBothWays.differing(files, options, \.settledStatements)
    }

    /// Debian's /usr/share/lua/5.1 and 5.4 (5.2 and 5.3 hold mostly the same modules).
    @Test func debianLuaFormatsTheSameWithAndWithoutTheFastPath() throws {
        let files = InstalledLua.files().filter {
            $0.hasPrefix("/usr/share/lua/5.1/") || $0.hasPrefix("/usr/share/lua/5.4/")
        }
        #expect(files.count > 600)
        #expect(try Self.differing(files, FormatOptions()) == [])
    }

    @Test func otherOptionsFormatTheSameWithAndWithoutTheFastPath() throws {
        let files = InstalledLua.files().filter { $0.hasPrefix("/usr/share/lua/5.1/") }
        #expect(files.count > 300)
        var narrow = FormatOptions()
        narrow.columnWidth = 80
        narrow.indentType = .spaces
        narrow.indentWidth = 2
        narrow.quoteStyle = .autoPreferSingle
        #expect(try Self.differing(files, narrow) == [])
        var windows = FormatOptions()
        windows.lineEndings = .windows
        windows.quoteStyle = .forceDouble
        windows.columnWidth = 60
        #expect(try Self.differing(files, windows) == [])
    }

    @Test func pathologicalInputsFormatTheSameWithAndWithoutTheFastPath() throws {
        var deep = ""
        for level in 1...190 { deep += level % 2 == 0 ? "f(" : "{ " }
        deep += "1"
        for level in (1...190).reversed() { deep += level % 2 == 0 ? ")" : " }" }
        let nesting = String(repeating: "local x = \(deep)\n", count: 20)
        let items = (1...2_000).map { "{ id = \($0), name = \"item\($0)\", weight = \($0).5 }" }
        let table = "return { " + items.joined(separator: ", ") + " }\n"
        let lines =
            "local t = {}\n"
            + (1...10_000).map { "local v\($0 % 150) = t[\($0)] + \($0) -- row \($0)" }.joined(separator: "\n") + "\n"
        for source in [nesting, table, lines] {
            let (full, fast) = try Self.bothWays(Array(source.utf8))
            #expect(full == fast)
        }
    }

    /// The fast path is taken (one text for the statement) where the source is settled, and
    /// not where formatting changes it; the output is the full path's either way.
    @Test func takenOnlyWhereTheSourceIsWhatFormattingGives() throws {
        let settled = "local x = t.a[1] + -y * #z .. 's'\nf(a, { b = 1 }, not c) -- note\nreturn x, ...\n"
        let source = Array(settled.utf8)
        let (doc, _) = try LuaFormat.layout(source, options: FormatOptions(), range: nil)
        guard case .concat(let parts, _) = doc else {
            Issue.record("a block is a concatenation")
            return
        }
        let texts = parts.compactMap { part -> String? in
            if let text = part.plainText(source) { return text }
            if case .concat(let inner, _) = part { return inner.first?.plainText(source) }
            return nil
        }
        #expect(texts == ["local x = t.a[1] + -y * #z .. \"s\"", "f(a, { b = 1 }, not c)", "return x, ..."])
        let unsettled = [
            ("local s = 'a\\'b'\n", "local s = \"a'b\"\n"),
            ("local s = 'a\"b'\n", "local s = 'a\"b'\n"),
            ("f\"x\"\n", "f(\"x\")\n"),
            ("f{ 1 }\n", "f({ 1 })\n"),
            ("local t = { a, }\n", "local t = { a }\n"),
            ("local t = { a; b }\n", "local t = { a, b }\n"),
            ("x = - -y\n", "x = - -y\n"),
            ("local k <const> = 1\n", "local k <const> = 1\n"),
            ("local a = b;\n(f)()\n", "local a = b;\n(f)()\n"),
            ("x = a\n.b\n", "x = a.b\n"),
        ]
        for (source, expected) in unsettled {
            let (full, fast) = try Self.bothWays(Array(source.utf8))
            #expect(String(decoding: fast, as: UTF8.self) == expected)
            #expect(full == fast)
        }
    }

    /// The texts of the top-level statements the fast path took in `source`'s layout.
    static func settledTexts(_ source: String) throws -> [String] {
        let bytes = Array(source.utf8)
        let (doc, _) = try LuaFormat.layout(bytes, options: FormatOptions(), range: nil)
        guard case .concat(let parts, _) = doc else { return [] }
        return parts.compactMap { $0.plainText(bytes) }
    }

    /// Tokens spaced otherwise in the source get formatting's spaces, also across a line
    /// break, but not before an operator starting a line (a run measures differently then);
    /// a statement holding a table so respaced fits with the table's source width (StyLua
    /// reads it there).
    @Test func respacedWhereTheSourceWidthsAllow() throws {
        let wide = "u = {" + String(repeating: " ", count: 120) + "a = 1 }\n"
        let source = "local  x=a+f( b )..'c'\ny = - x\nt = {  a = 1 }\nz = a +\n  b\nw = a\n  + b\n" + wide
        #expect(
            try Self.settledTexts(source) == ["local x = a + f(b) .. \"c\"", "y = -x", "t = { a = 1 }", "z = a + b"])
        let (full, fast) = try Self.bothWays(Array(source.utf8))
        #expect(full == fast)
        #expect(
            String(decoding: fast, as: UTF8.self)
                == "local x = a + f(b) .. \"c\"\ny = -x\nt = { a = 1 }\nz = a + b\nw = a + b\nu = { a = 1 }\n")
    }

    /// A string holding quotes is written as StringQuotes gives it, and a string argument
    /// without parentheses gets them; in a statement holding a table only when the widths stay.
    @Test func requotedStringsAndStringArguments() throws {
        let source =
            "local s = 'a\\'b'\nlocal m = require \"m\"\nx = f'it\"s' .. g \"x\" \"y\"\nt = { 'a\"b' }\nu = { 'a\\'b' }\n"
        let expected =
            "local s = \"a'b\"\nlocal m = require(\"m\")\nx = f('it\"s') .. g(\"x\")(\"y\")\nt = { 'a\"b' }\nu = { \"a'b\" }\n"
        #expect(
            try Self.settledTexts(source) == [
                "local s = \"a'b\"", "local m = require(\"m\")", "x = f('it\"s') .. g(\"x\")(\"y\")", "t = { 'a\"b' }",
            ])
        for style in [FormatOptions.QuoteStyle.autoPreferDouble, .autoPreferSingle, .forceDouble, .forceSingle] {
            var options = FormatOptions()
            options.quoteStyle = style
            let (full, fast) = try Self.bothWays(Array(source.utf8), options)
            #expect(full == fast, "\(style)")
            if style == .autoPreferDouble { #expect(String(decoding: fast, as: UTF8.self) == expected) }
        }
    }

    /// In a function that is a value, a statement is taken when it fits at its block's depth
    /// plus one level for each token of its statement before the function (what the layout
    /// may indent by, at most); else the full path decides, at the indentation it gives.
    @Test func inAFunctionValueTheIndentationIsBoundedByTheTokensBeforeIt() throws {
        let source = "f(a, function()\n\tlocal x = y + z\nend)\n"
        let (doc, stream) = try LuaFormat.layout(Array(source.utf8), options: FormatOptions(), range: nil)
        #expect(Self.holdsText(doc, "local x = y + z", stream.source))
        for width in [20, 24, 26, 28, 30, 40] {
            var options = FormatOptions()
            options.columnWidth = width
            let nested =
                "call(aaaa, bbbb, function()\n\tlocal value = first + second\nend, { k = function()\n\treturn 1\nend })\n"
            let (full, fast) = try Self.bothWays(Array(nested.utf8), options)
            #expect(full == fast, "column width \(width)")
        }
    }

    /// Whether `doc` holds the text `text` as one node.
    static func holdsText(_ doc: Doc, _ text: String, _ source: [UInt8]) -> Bool {
        switch doc {
        case .text, .slice: return doc.plainText(source) == text
        case .concat(let parts, _): return parts.contains { holdsText($0, text, source) }
        case .indent(let inner, _), .group(let inner, _, _): return holdsText(inner, text, source)
        case .choice(let states, _, _): return states.contains { holdsText($0, text, source) }
        default: return false
        }
    }

    /// The conditions of `if`, `elseif` and `while` are taken the same way when their header
    /// fits; one in parentheses (which formatting drops) or too wide takes the full path.
    @Test func conditionsOfIfElseifAndWhile() throws {
        let source =
            "if a==b then\n\tx()\nelseif not c then -- note\nend\nwhile (d) do\nend\nwhile i<=n and t[i] do\nend\n"
        let bytes = Array(source.utf8)
        let (doc, _) = try LuaFormat.layout(bytes, options: FormatOptions(), range: nil)
        #expect(Self.holdsText(doc, "a == b", bytes))
        #expect(Self.holdsText(doc, "not c", bytes))
        #expect(Self.holdsText(doc, "i <= n and t[i]", bytes))
        #expect(!Self.holdsText(doc, "(d)", bytes) && !Self.holdsText(doc, "d", bytes))
        for width in [10, 14, 15, 16, 20, 24, 120] {
            var options = FormatOptions()
            options.columnWidth = width
            let (full, fast) = try Self.bothWays(Array(source.utf8), options)
            #expect(full == fast, "column width \(width)")
        }
    }

    /// A statement exactly as wide as the column width is settled; one column more is not.
    @Test func theColumnWidthIsMeasuredAtTheStatementsIndentation() throws {
        var options = FormatOptions()
        options.columnWidth = 24
        let fits = "do\n\tlocal x = aa + bbbbb\nend\n"  // 4 columns of indentation + 20
        let (full, fast) = try Self.bothWays(Array(fits.utf8), options)
        #expect(String(decoding: fast, as: UTF8.self) == fits)
        #expect(full == fast)
        let over = "do\n\tlocal x = aa + bbbbbb\nend\n"
        let (fullOver, fastOver) = try Self.bothWays(Array(over.utf8), options)
        #expect(fullOver == fastOver)
        #expect(String(decoding: fastOver, as: UTF8.self) != over)
    }
}
