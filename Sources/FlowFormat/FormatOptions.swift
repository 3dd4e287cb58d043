/// StyLua's options, each with StyLua's default: what `stylua.toml` (or `.stylua.toml`,
/// or `.editorconfig`) sets for the files below it.
package struct FormatOptions: Sendable, Equatable {
    /// The line ending written.
    package enum LineEndings: String, Sendable, CaseIterable { case unix = "Unix", windows = "Windows" }
    /// What one level of indentation is.
    package enum IndentType: String, Sendable, CaseIterable { case tabs = "Tabs", spaces = "Spaces" }
    /// Which quotes a short string gets.
    package enum QuoteStyle: String, Sendable, CaseIterable {
        case autoPreferDouble = "AutoPreferDouble", autoPreferSingle = "AutoPreferSingle"
        case forceDouble = "ForceDouble", forceSingle = "ForceSingle"
    }
    /// When a call with one string or table argument keeps its parentheses.
    package enum CallParentheses: String, Sendable, CaseIterable {
        case always = "Always", noSingleString = "NoSingleString", noSingleTable = "NoSingleTable"
        case none = "None", input = "Input"
    }
    /// Which simple blocks may stay on one line.
    package enum CollapseSimpleStatement: String, Sendable, CaseIterable {
        case never = "Never", functionOnly = "FunctionOnly", conditionalOnly = "ConditionalOnly"
        case always = "Always"
    }
    /// Where a space goes between a function's name and its parentheses.
    package enum SpaceAfterFunctionNames: String, Sendable, CaseIterable {
        case never = "Never", definitions = "Definitions", calls = "Calls", always = "Always"
    }
    /// The Lua dialect. flowpkg reads Lua 5.4, which every value but Luau's and CfxLua's
    /// is a subset of.
    package enum Syntax: String, Sendable, CaseIterable {
        case all = "All", lua51 = "Lua51", lua52 = "Lua52", lua53 = "Lua53", lua54 = "Lua54"
        case luaJIT = "LuaJIT"
    }

    package var columnWidth = 120
    package var lineEndings = LineEndings.unix
    package var indentType = IndentType.tabs
    package var indentWidth = 4
    package var quoteStyle = QuoteStyle.autoPreferDouble
    package var callParentheses = CallParentheses.always
    package var collapseSimpleStatement = CollapseSimpleStatement.never
    package var spaceAfterFunctionNames = SpaceAfterFunctionNames.never
    package var sortRequires = false
    package var syntax = Syntax.all
    /// Whether a statement whose source already is its formatted text is taken as it is,
    /// without building its layout (LuaFormatter+SettledStatements). Not an option of StyLua's:
    /// the output is the same either way, and tests turn it off to prove it.
    package var settledStatements = true
    /// Whether statements outside expressions are printed as they are formatted rather than
    /// laid out whole first (LuaFormatter+Emission). Not an option of StyLua's: the output is the
    /// same either way, and tests turn it off to prove it.
    package var emitsStatements = true

    package init() {}

    /// One level of indentation as text.
    var indentUnit: String {
        indentType == .tabs ? "\t" : String(repeating: " ", count: indentWidth)
    }

    /// How many columns one level of indentation takes when measuring a line.
    var indentColumns: Int { indentWidth }
}
