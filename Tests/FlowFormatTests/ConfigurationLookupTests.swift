import Foundation
import FlowTestSupport
import Testing

@testable import FlowFormat

/// One `ConfigurationLookup` over many files, as `FormatRun` uses it: each file gets the
/// nearest StyLua file's options, else its own `.editorconfig` sections, else the defaults,
/// whichever folder was asked about first (the walk up is remembered per folder).
@Suite struct ConfigurationLookupTests {
    @Test func eachFileGetsItsOwnConfigurationInAnyOrder() throws {
        let scratch = try Scratch("lookup")
        defer { scratch.remove() }
        _ = try scratch.file("styled/.stylua.toml", "column_width = 80\n")
        _ = try scratch.file("styled/deep/er/.stylua.toml", "indent_type = \"Spaces\"\nindent_width = 2\n")
        _ = try scratch.file(
            "edited/.editorconfig", "root = true\n[*.lua]\nmax_line_length = 60\n[spec_*.lua]\nquote_type = single\n")
        let root = scratch.url.path
        let files = [
            "styled/deep/a.lua", "styled/deep/er/b.lua", "styled/deep/er/c/d.lua", "edited/e.lua",
            "edited/spec_f.lua", "edited/sub/g.lua", "edited/sub/spec_h.lua", "plain/i.lua",
        ].map { root + "/" + $0 }
        var styled = FormatOptions()
        styled.columnWidth = 80
        var nested = FormatOptions()
        nested.indentType = .spaces
        nested.indentWidth = 2
        var edited = FormatOptions()
        edited.columnWidth = 60
        var spec = edited
        spec.quoteStyle = .autoPreferSingle
        let expected = [styled, nested, nested, edited, spec, edited, spec, FormatOptions()]
        for order in [Array(files.indices), Array(files.indices.reversed()), [5, 6, 4, 3, 2, 7, 1, 0, 6, 5, 0]] {
            let lookup = ConfigurationLookup()
            for index in order {
                #expect(try lookup.options(for: files[index]) == expected[index], "\(files[index])")
            }
        }
    }

    @Test func aBrokenStyLuaFileIsReportedForEveryFileUnderIt() throws {
        let scratch = try Scratch("lookup-broken")
        defer { scratch.remove() }
        _ = try scratch.file("p/stylua.toml", "column_widht = 80\n")
        let lookup = ConfigurationLookup()
        for name in ["p/a.lua", "p/b.lua", "p/q/c.lua"] {
            #expect(throws: ConfigurationError.self) { try lookup.options(for: scratch.url.path + "/" + name) }
        }
    }
}
