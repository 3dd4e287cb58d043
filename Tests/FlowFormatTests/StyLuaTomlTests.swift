import Testing

@testable import FlowFormat

/// stylua.toml as TOML allows it to be written (toml++ reads it: TOMLDocument), and each kind of
/// bad file with the message, line and column the user sees.
@Suite struct StyLuaTomlTests {
    func options(_ text: String) throws(ConfigurationError) -> FormatOptions {
        try StyLuaConfiguration.parse(text, path: "stylua.toml")
    }

    func failure(_ text: String) -> String? {
        do {
            _ = try options(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func tablesWrittenEachWayTOMLAllows() throws {
        #expect(try options("[sort_requires]\nenabled = true\n").sortRequires)
        #expect(try options("sort_requires = { enabled = true }\n").sortRequires)
        #expect(try options("sort_requires.enabled = true\n").sortRequires)
        #expect(try !options("sort_requires = {}\n").sortRequires)
    }

    @Test func commentsQuotingAndNumberForms() throws {
        let text = """
            # StyLua's settings
            'column_width' = 1_00   # literal key, underscores
            "indent_type" = 'Spaces'
            indent_width = 0x2
            quote_style = \"\"\"AutoPreferSingle\"\"\"
            """
        let read = try options(text)
        #expect(read.columnWidth == 100 && read.indentType == .spaces && read.indentWidth == 2)
        #expect(read.quoteStyle == .autoPreferSingle)
    }

    @Test func emptyFileGivesStyLuaDefaults() throws {
        #expect(try options("") == FormatOptions())
        #expect(try options("# nothing set\n\n") == FormatOptions())
    }

    @Test func syntaxErrorsNameTheFileAndPlace() {
        #expect(failure("column_width = \n")?.hasPrefix("stylua.toml:1:16: not valid TOML: ") == true)
        #expect(
            failure("indent_width = 2\nindent_width = 4\n")?.hasPrefix("stylua.toml:2:16: not valid TOML: ") == true)
        #expect(
            failure("indent_width = 2\nindent_width = 4\n")?.hasSuffix(
                "cannot redefine existing integer 'indent_width'") == true)
        #expect(failure("[sort_requires\nenabled = true\n")?.hasPrefix("stylua.toml:1:") == true)
        #expect(failure("quote_style = \"AutoPreferSingle\n")?.contains("not valid TOML") == true)
    }

    @Test func valuesOfAKindNoKeyTakes() {
        #expect(
            failure("column_width = 80.5\n") == "stylua.toml:1:16: key 'column_width' must be a positive whole number")
        #expect(
            failure("column_width = -1\n") == "stylua.toml:1:16: key 'column_width' must be a positive whole number")
        #expect(failure("column_width = 99999999999999999999\n")?.contains("not representable in 64 bits") == true)
        #expect(failure("indent_type = [\"Tabs\"]\n")?.contains("key 'indent_type' must be one of") == true)
        #expect(
            failure("no_call_parentheses = 1979-05-27\n")
                == "stylua.toml:1:23: key 'no_call_parentheses' must be true or false")
        #expect(
            failure("sort_requires = true\n")
                == "stylua.toml:1:17: key 'sort_requires' must be a table ([sort_requires])")
        #expect(
            failure("[sort_requires]\nsorted = true\n")
                == "stylua.toml:2:10: unknown key 'sort_requires.sorted' (StyLua has 'enabled')")
    }

    @Test func bytesThatAreNotTextAreRefused() {
        #expect(failure("column_width = 80\u{0}\n")?.contains("not valid TOML") == true)
    }
}
