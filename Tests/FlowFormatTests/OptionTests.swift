import Testing

@testable import FlowFormat

/// Each StyLua option and each ignore form, with the text it gives.
@Suite struct OptionTests {
    func formatted(_ source: String, _ change: (inout FormatOptions) -> Void = { _ in }) throws -> String {
        var options = FormatOptions()
        change(&options)
        return String(decoding: try LuaFormat.format(Array(source.utf8), options: options), as: UTF8.self)
    }

    @Test func columnWidth() throws {
        let source = "f(aaaa, bbbb)\n"
        #expect(try formatted(source) == "f(aaaa, bbbb)\n")
        #expect(try formatted(source) { $0.columnWidth = 10 } == "f(\n\taaaa,\n\tbbbb\n)\n")
    }

    @Test func lineEndings() throws {
        #expect(try formatted("do\r\nx()\r\nend\r\n") == "do\n\tx()\nend\n")
        #expect(try formatted("do x() end") { $0.lineEndings = .windows } == "do\r\n\tx()\r\nend\r\n")
    }

    @Test func indentTypeAndWidth() throws {
        #expect(try formatted("do x() end") { $0.indentType = .spaces } == "do\n    x()\nend\n")
        #expect(
            try formatted("do x() end") {
                $0.indentType = .spaces
                $0.indentWidth = 2
            } == "do\n  x()\nend\n")
    }

    @Test func quoteStyles() throws {
        let source = "f('a', \"b\", 'it\\'s', \"say \\\"hi\\\"\")\n"
        #expect(try formatted(source) == "f(\"a\", \"b\", \"it's\", 'say \"hi\"')\n")
        #expect(try formatted(source) { $0.quoteStyle = .autoPreferSingle } == "f('a', 'b', \"it's\", 'say \"hi\"')\n")
        #expect(
            try formatted(source) { $0.quoteStyle = .forceDouble } == "f(\"a\", \"b\", \"it's\", \"say \\\"hi\\\"\")\n")
        #expect(try formatted(source) { $0.quoteStyle = .forceSingle } == "f('a', 'b', 'it\\'s', 'say \"hi\"')\n")
    }

    @Test func callParentheses() throws {
        let source = "f 'a'\ng {}\nh('b')\n"
        #expect(try formatted(source) == "f(\"a\")\ng({})\nh(\"b\")\n")
        #expect(try formatted(source) { $0.callParentheses = .noSingleString } == "f \"a\"\ng({})\nh \"b\"\n")
        #expect(try formatted(source) { $0.callParentheses = .noSingleTable } == "f(\"a\")\ng {}\nh(\"b\")\n")
        #expect(try formatted(source) { $0.callParentheses = .none } == "f \"a\"\ng {}\nh \"b\"\n")
        #expect(try formatted(source) { $0.callParentheses = .input } == "f \"a\"\ng {}\nh(\"b\")\n")
    }

    @Test func spaceAfterFunctionNames() throws {
        let source = "function f() end\nf()\n"
        #expect(try formatted(source) == "function f() end\nf()\n")
        #expect(try formatted(source) { $0.spaceAfterFunctionNames = .definitions } == "function f () end\nf()\n")
        #expect(try formatted(source) { $0.spaceAfterFunctionNames = .calls } == "function f() end\nf ()\n")
        #expect(try formatted(source) { $0.spaceAfterFunctionNames = .always } == "function f () end\nf ()\n")
    }

    @Test func ignoreComments() throws {
        let source = "-- stylua: ignore\nlocal  a = {1,2}\nlocal  b=1\n"
        #expect(try formatted(source) == "-- stylua: ignore\nlocal  a = {1,2}\nlocal b = 1\n")
        let region = "local  a=1\n-- stylua: ignore start\nlocal  b=2\nlocal  c=3\n-- stylua: ignore end\nlocal  d=4\n"
        let expected =
            "local a = 1\n-- stylua: ignore start\nlocal  b=2\nlocal  c=3\n-- stylua: ignore end\nlocal d = 4\n"
        #expect(try formatted(region) == expected)
    }

    @Test func configurationFileKeys() throws {
        let text = """
            column_width = 80
            line_endings = "Windows"
            indent_type = "Spaces"
            indent_width = 2
            quote_style = "ForceSingle"
            call_parentheses = "None"
            collapse_simple_statement = "Never"
            space_after_function_names = "Always"
            syntax = "Lua54"
            [sort_requires]
            enabled = false
            """
        let options = try StyLuaConfiguration.parse(text, path: "stylua.toml")
        #expect(options.columnWidth == 80 && options.lineEndings == .windows && options.indentType == .spaces)
        #expect(options.indentWidth == 2 && options.quoteStyle == .forceSingle && options.callParentheses == .none)
        #expect(options.spaceAfterFunctionNames == .always && options.syntax == .lua54 && !options.sortRequires)
        #expect(
            throws: ConfigurationError(
                path: "x.toml", message: "key 'indent_type' must be one of \"Tabs\", \"Spaces\"", line: 1, column: 15)
        ) {
            try StyLuaConfiguration.parse("indent_type = \"tabs\"", path: "x.toml")
        }
    }

    @Test func editorConfigSections() throws {
        let config = EditorConfig(
            text:
                "root = true\n[*]\nindent_style = space\nindent_size = 3\n[*.{lua,luau}]\nmax_line_length = 60\nquote_type = single\n",
            path: "/p/.editorconfig", folder: "/p")
        var options = FormatOptions()
        try config.apply(to: &options, for: "/p/src/a.lua")
        #expect(options.indentType == .spaces && options.indentWidth == 3 && options.columnWidth == 60)
        #expect(options.quoteStyle == .autoPreferSingle && config.isRoot)
    }

    @Test func styluaignorePatterns() throws {
        var files = FormatFiles(root: "/p")
        files.patterns = [
            ("build", false, true, false), ("*.gen.lua", false, false, false), ("src/keep.gen.lua", true, false, true),
        ]
        #expect(files.isIgnored("/p/build/a.lua", isFolder: false))
        #expect(files.isIgnored("/p/src/x.gen.lua", isFolder: false))
        #expect(!files.isIgnored("/p/src/keep.gen.lua", isFolder: false))
        #expect(!files.isIgnored("/p/src/a.lua", isFolder: false))
    }
}
