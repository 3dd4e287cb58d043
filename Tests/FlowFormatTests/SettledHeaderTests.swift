import Testing

@testable import FlowFormat

/// The fast path for the values of a `for ... in` and a function statement's parameters
/// (LuaFormatter+SettledHeaders): taken as one text where they are on one line without comments
/// and the header fits, and the full path's bytes either way, at every width around the edge.
@Suite struct SettledHeaderTests {
    static let source = """
        for k, v in pairs(t) do
        \tprint(k)
        end
        for _, x in ipairs({ 1, 2 }) do
        end
        for i, v in next, t, nil do
        end
        function M.a:b(x, y, ...)
        \treturn x
        end
        local function f(a)
        end
        function g() end
        function h(a, -- first
        \tb)
        end
        function j(a,
        \tb)
        \treturn a
        end
        for k --[[ key ]], v in pairs(t) do
        end
        local function verylongname(first, second, third) x = 1 end

        """

    @Test func takenWhereOnOneLineAndFitting() throws {
        let source = Array(Self.source.utf8)
        let (doc, _) = try LuaFormat.layout(source, options: FormatOptions(), range: nil)
        for text in ["pairs(t)", "ipairs({ 1, 2 })", "next, t, nil", "(x, y, ...)", "(a)", "()"] {
            #expect(SettledStatementTests.holdsText(doc, text, source), "\(text)")
        }
        #expect(!SettledStatementTests.holdsText(doc, "(a, b)", source))
        // 27 columns before the parameters, 22 of them, 4 for ` end`: 53.
        for (width, taken) in [(52, false), (53, true)] {
            var options = FormatOptions()
            options.columnWidth = width
            let (narrow, _) = try LuaFormat.layout(Array(Self.source.utf8), options: options, range: nil)
            #expect(
                SettledStatementTests.holdsText(narrow, "(first, second, third)", source) == taken, "width \(width)")
        }
    }

    @Test func theFullPathsBytesAtEveryWidth() throws {
        for width in [8, 12, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 40, 50, 60, 120] {
            for indentWidth in [2, 4] {
                var options = FormatOptions()
                options.columnWidth = width
                options.indentType = .spaces
                options.indentWidth = indentWidth
                let (full, fast) = try SettledStatementTests.bothWays(Array(Self.source.utf8), options)
                #expect(full == fast, "column width \(width), indent \(indentWidth)")
            }
        }
        let nested = "local t = {\n\tf = function()\n\t\tfor key, value in pairs(items) do\n\t\tend\n\tend,\n}\n"
        for width in 20...44 {
            var options = FormatOptions()
            options.columnWidth = width
            let (full, fast) = try SettledStatementTests.bothWays(Array(nested.utf8), options)
            #expect(full == fast, "column width \(width)")
        }
    }
}
