import FlowTestSupport
import Foundation
import Testing

@testable import FlowFormat

/// Statements printed as they are formatted (LuaFormatter+Emission) give the bytes the whole
/// layout printed at once gives: on Debian's Lua code bases with StyLua's defaults and other
/// options, with and without the fast path, and on the shapes where a statement's parts meet
/// what follows them (a kept `;`, a blank line before `until`, comments closing blocks, empty
/// bodies, ignored statements).
@Suite struct EmissionTests {
    static func bothWays(_ source: [UInt8], _ options: FormatOptions = FormatOptions()) throws -> (
        whole: [UInt8], emitted: [UInt8]
    ) {
        let (off, on) = try FormatBothWays.format(source, options, \.emitsStatements)
        return (off, on)
    }

    static func differing(_ files: [String], _ options: FormatOptions) throws -> [String] {
        try FormatBothWays.differing(files, options, \.emitsStatements)
    }

    @Test func debianLuaFormatsTheSameEmittedAndWhole() throws {
        let files = InstalledLua.files().filter {
            $0.hasPrefix("/usr/share/lua/5.1/") || $0.hasPrefix("/usr/share/lua/5.4/")
        }
        #expect(files.count > 600)
        #expect(try Self.differing(files, FormatOptions()) == [])
    }

    @Test func otherOptionsAndTheFullPathFormatTheSameEmittedAndWhole() throws {
        let files = InstalledLua.files().filter { $0.hasPrefix("/usr/share/lua/5.1/") }
        #expect(files.count > 300)
        var narrow = FormatOptions()
        narrow.columnWidth = 40
        narrow.indentType = .spaces
        narrow.indentWidth = 2
        narrow.quoteStyle = .autoPreferSingle
        #expect(try Self.differing(files, narrow) == [])
        var full = FormatOptions()
        full.settledStatements = false
        full.lineEndings = .windows
        #expect(try Self.differing(files, full) == [])
    }

    /// Each shape, with the text both ways must give.
    @Test func shapesWherePartsMeet() throws {
        let cases: [(String, String)] = [
            // A kept `;` is measured with the `until` condition before it.
            (
                "repeat\n  x = 1\nuntil aaaaaaaaaa and bbbbbbbbbb;\n(f)()\n",
                "repeat\n\tx = 1\nuntil aaaaaaaaaa and bbbbbbbbbb;\n(f)()\n"
            ),
            // A blank line before `until` stays; an empty body has one line break.
            (
                "repeat\n  x = 1\n\nuntil done\nrepeat until done\n",
                "repeat\n\tx = 1\n\nuntil done\nrepeat\nuntil done\n"
            ),
            // Comments closing a block, after `end`, and before `else` (not indented past it in
            // the source, one stays at its level).
            (
                "if a then\n  f() -- one\n  -- closing\nelse -- two\n  -- only\nend -- three\n",
                "if a then\n\tf() -- one\n-- closing\nelse -- two\n\t-- only\nend -- three\n"
            ),
            // Empty bodies, a function statement with and without statements, `;` alone.
            (
                "function m.f(a, b) end\nlocal function g() ; end\nwhile x do end\nfor i = 1, 2 do ; y() end\n",
                "function m.f(a, b) end\nlocal function g() end\nwhile x do\nend\nfor i = 1, 2 do\n\ty()\nend\n"
            ),
            // An ignored statement inside an emitted block stays as it is.
            (
                "do\n  -- stylua: ignore\n  local  x  =  1\n  local  y  =  2\nend\n",
                "do\n\t-- stylua: ignore\n\tlocal  x  =  1\n\tlocal y = 2\nend\n"
            ),
            // Functions on a statement's line: their blocks emitted; a comment after `=` hangs.
            (
                "local f = function(a) return a end\nm.g = function() end\nreturn function(...) x() end;\n",
                "local f = function(a)\n\treturn a\nend\nm.g = function() end\nreturn function(...)\n\tx()\nend\n"
            ),
            (
                "t[k] = -- note\n  function() y() end\n",
                "t[k] = -- note\n\tfunction()\n\t\ty()\n\tend\n"
            ),
            // Tables broken in the source: a field a line, nested ones too, comments kept, the
            // last field's separator becomes `,`.
            (
                "local t = {\n  a = 1; -- one\n  b = {\n    c = 'x' },\n  -- before\n  { 1,\n 2 }\n  -- closing\n}\nreturn {\n f(x) , y };\n",
                "local t = {\n\ta = 1, -- one\n\tb = {\n\t\tc = \"x\",\n\t},\n\t-- before\n\t{ 1, 2 },\n\t-- closing\n}\nreturn {\n\tf(x),\n\ty,\n}\n"
            ),
            // A table whose ` {` passes the width after `=` hangs; one with a comment after `{`.
            (
                "local aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa = {\n  1 }\nM.x = { -- note\n  1 }\n",
                "local aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa =\n\t{\n\t\t1,\n\t}\nM.x = { -- note\n\t1,\n}\n"
            ),
            // A call whose last argument is a function: its block emitted when the first line
            // fits; else one argument a line; a method call; a comment among the arguments.
            (
                "describe(\"x\", function()\n  it(\"y\", function() assert(a) end)\nend)\nobj:on(\"e\", function(a, b) f(a) end)\n",
                "describe(\"x\", function()\n\tit(\"y\", function()\n\t\tassert(a)\n\tend)\nend)\nobj:on(\"e\", function(a, b)\n\tf(a)\nend)\n"
            ),
            (
                "vim.keymap.set(\"n\", \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", function() x() end)\nf(a, -- c\n  function() y() end)\n",
                "vim.keymap.set(\n\t\"n\",\n\t\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\n\tfunction()\n\t\tx()\n\tend\n)\nf(\n\ta, -- c\n\tfunction()\n\t\ty()\n\tend\n)\n"
            ),
            // A function value inside a statement is laid out whole, its block inside.
            (
                "for _, v in ipairs(t) do\n  f(function()\n    return v\n  end)\nend\n",
                "for _, v in ipairs(t) do\n\tf(function()\n\t\treturn v\n\tend)\nend\n"
            ),
        ]
        for (source, expected) in cases {
            let (whole, emitted) = try Self.bothWays(Array(source.utf8))
            #expect(String(decoding: emitted, as: UTF8.self) == expected)
            #expect(emitted == whole)
        }
    }

    /// Fields of tables broken in the source (LuaFormatter+EmittedTables).
    @Test func fieldsOfBrokenTables() throws {
        let cases: [(String, String)] = [
            // Fields of a table broken in the source: settled ones as one text (one opening
            // with a bracket or a table), functions emitted (with comments before them and one
            // after `=`, which hangs the function), block comments measured with the field.
            (
                "local colors = {\n  { 0, 0, 255 }, -- Blue\n  [k] = v;\n  [\"a b\"] = (x),\n"
                    + "  handler = function(a) return a end,\n  -- before\n  function() y() end,\n"
                    + "  late = -- note\n    function() z() end,\n  last = --[[ c ]] 1,\n  b = 2 --[[ block ]],\n}\n",
                "local colors = {\n\t{ 0, 0, 255 }, -- Blue\n\t[k] = v,\n\t[\"a b\"] = (x),\n"
                    + "\thandler = function(a)\n\t\treturn a\n\tend,\n\t-- before\n\tfunction()\n\t\ty()\n\tend,\n"
                    + "\tlate = -- note\n\tfunction()\n\t\tz()\n\tend,\n\tlast = --[[ c ]] 1,\n\tb = 2 --[[ block ]],\n}\n"
            ),
            // A field's `,` is measured: 120 columns with it stays, 121 breaks.
            (
                "return {\n  k = f(a, \(String(repeating: "b", count: 105))),\n"
                    + "  k = f(a, \(String(repeating: "b", count: 106)));\n}\n",
                "return {\n\tk = f(a, \(String(repeating: "b", count: 105))),\n"
                    + "\tk = f(\n\t\ta,\n\t\t\(String(repeating: "b", count: 106))\n\t),\n}\n"
            ),
        ]
        for (source, expected) in cases {
            let (whole, emitted) = try Self.bothWays(Array(source.utf8))
            #expect(String(decoding: emitted, as: UTF8.self) == expected)
            #expect(emitted == whole)
        }
    }

    /// A statement holding text beyond ASCII is measured by its bytes where StyLua measures
    /// so (`return a, b`): at its exact indentation in an emitted block it fits in characters
    /// (58 of 60) but not in bytes (60 + 2), and it breaks as in the whole layout.
    @Test func aStatementBeyondASCIIFitsByItsBytes() throws {
        var options = FormatOptions()
        options.columnWidth = 60
        options.indentType = .spaces
        options.indentWidth = 2
        let source = """
            M.get_icon_provider = function()
              if has_devicons then
                return function(type, name, conf)
                  if type == "directory" then
                    return conf and conf.directory or "\u{F07B}", "OilDirIcon"
                  end
                end
              end
            end

            """
        let (whole, emitted) = try Self.bothWays(Array(source.utf8), options)
        #expect(
            String(decoding: emitted, as: UTF8.self).contains(
                "        return conf and conf.directory or \"\u{F07B}\",\n          \"OilDirIcon\"\n"))
        #expect(emitted == whole)
    }

    /// A range, or statements that collapse, are laid out whole (their statements are
    /// decided after they are formatted); the results are the same as without emission.
    @Test func rangesAndCollapsingTakeTheWholeLayout() throws {
        let source = Array("if a then return end\nlocal  x  =  1\nlocal  y  =  2\n".utf8)
        var collapsing = FormatOptions()
        collapsing.collapseSimpleStatement = .always
        let (whole, emitted) = try Self.bothWays(source, collapsing)
        #expect(String(decoding: emitted, as: UTF8.self) == "if a then return end\nlocal x = 1\nlocal y = 2\n")
        #expect(emitted == whole)
        let ranged = try LuaFormat.format(source, range: 21..<36)
        #expect(String(decoding: ranged, as: UTF8.self) == "if a then return end\nlocal x = 1\nlocal  y  =  2\n")
    }
}
