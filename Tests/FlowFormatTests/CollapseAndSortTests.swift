import Testing

@testable import FlowFormat

/// `collapse_simple_statement` and `sort_requires` as StyLua applies them.
@Suite struct CollapseAndSortTests {
    static func formatted(_ source: String, collapse: FormatOptions.CollapseSimpleStatement, width: Int = 80) throws
        -> String
    {
        var options = FormatOptions()
        options.columnWidth = width
        options.indentType = .spaces
        options.indentWidth = 2
        options.collapseSimpleStatement = collapse
        return try LayoutTests.formatted(source, options)
    }

    static let source = """
        local f = function(x)
          return x + 1
        end
        if not ok then
          return
        end

        """

    @Test func neverKeepsEveryBodyOnItsOwnLines() throws {
        #expect(try Self.formatted(Self.source, collapse: .never) == Self.source)
    }

    @Test func functionOnlyCollapsesSimpleFunctions() throws {
        let expected = "local f = function(x) return x + 1 end\nif not ok then\n  return\nend\n"
        #expect(try Self.formatted(Self.source, collapse: .functionOnly) == expected)
    }

    @Test func conditionalOnlyCollapsesIfGuards() throws {
        let expected = "local f = function(x)\n  return x + 1\nend\nif not ok then return end\n"
        #expect(try Self.formatted(Self.source, collapse: .conditionalOnly) == expected)
    }

    @Test func alwaysCollapsesBothButNotCommentsNestedFunctionsElseOrWhatDoesNotFit() throws {
        #expect(
            try Self.formatted(Self.source, collapse: .always)
                == "local f = function(x) return x + 1 end\nif not ok then return end\n")
        let kept = """
            if a then
              -- why
              return
            end
            local g = function()
              print(function() end)
            end
            if x then
              y = 1
            else
              y = 2
            end
            local h = function(argument)
              return argument + 12345
            end

            """
        #expect(try Self.formatted(kept, collapse: .always, width: 40) == kept)
    }

    @Test func sortRequiresSortsEachRunOfRequiresByName() throws {
        var options = FormatOptions()
        options.sortRequires = true
        let source = """
            -- header
            local util = require("util")
            local async = require("async") -- trailing
            local config = require("config").options
            local b = require("b")

            local z = require("z")
            local a = require("a")
            -- a comment line ends a run, as in StyLua
            local y = require("y")
            print(util, async, config, z, a, b, y)

            """
        let expected = """
            -- header
            local async = require("async") -- trailing
            local util = require("util")
            local config = require("config").options
            local b = require("b")

            local a = require("a")
            local z = require("z")
            -- a comment line ends a run, as in StyLua
            local y = require("y")
            print(util, async, config, z, a, b, y)

            """
        #expect(try LayoutTests.formatted(source, options) == expected)
        // The meaning check compares the layout with the sorted source: no refusal.
        let checked = try CheckedFormat().format(Array(source.utf8), options: options, chunkName: "r.lua")
        #expect(String(decoding: checked, as: UTF8.self) == expected)
    }
}
