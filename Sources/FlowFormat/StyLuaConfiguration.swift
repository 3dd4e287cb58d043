/// A configuration file flowpkg could not use: which file, which key, what is wrong.
package struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    package var path: String
    package var message: String
    /// Where in the file (1-based), when the reader knows.
    package var line: Int? = nil
    package var column: Int? = nil

    package var description: String {
        guard let line, let column else { return "\(path): \(message)" }
        return "\(path):\(line):\(column): \(message)"
    }
}

/// StyLua's configuration file (`stylua.toml`, `.stylua.toml`), read with toml++: every key
/// StyLua documents, with its values; any other key, or a value of the wrong type, is an error
/// naming the key and the file, as StyLua refuses them.
package enum StyLuaConfiguration {
    /// The file names looked for in each folder, in StyLua's order.
    package static let fileNames = ["stylua.toml", ".stylua.toml"]

    package static func parse(_ text: String, path: String) throws(ConfigurationError) -> FormatOptions {
        let table: [String: TOMLEntry]
        do {
            table = try TOMLDocument.parse(text)
        } catch {
            throw ConfigurationError(
                path: path, message: "not valid TOML: \(error.message)", line: error.line, column: error.column)
        }
        var options = FormatOptions()
        for key in table.keys.sorted() {
            guard let entry = table[key] else { continue }
            do {
                try apply(key, entry.value, to: &options, path: path)
            } catch {
                var placed = error
                placed.line = placed.line ?? entry.line
                placed.column = placed.column ?? entry.column
                throw placed
            }
        }
        return options
    }

    private static func apply(
        _ key: String, _ value: TOMLValue, to options: inout FormatOptions, path: String
    )
        throws(ConfigurationError)
    {
        switch key {
        case "column_width": options.columnWidth = try positive(key, value, path)
        case "indent_width": options.indentWidth = try positive(key, value, path)
        case "line_endings": options.lineEndings = try choice(key, value, path)
        case "indent_type": options.indentType = try choice(key, value, path)
        case "quote_style": options.quoteStyle = try choice(key, value, path)
        case "call_parentheses": options.callParentheses = try choice(key, value, path)
        case "collapse_simple_statement": options.collapseSimpleStatement = try choice(key, value, path)
        case "space_after_function_names": options.spaceAfterFunctionNames = try choice(key, value, path)
        case "syntax": options.syntax = try choice(key, value, path)
        case "no_call_parentheses":
            // StyLua's older spelling of `call_parentheses = "None"`.
            guard let flag = value.boolean else { throw mistyped(key, "true or false", path) }
            if flag { options.callParentheses = .none }
        case "sort_requires":
            guard let section = value.table else { throw mistyped(key, "a table ([sort_requires])", path) }
            for (inner, entry) in section.sorted(by: { $0.key < $1.key }) {
                guard inner == "enabled" else {
                    throw ConfigurationError(
                        path: path, message: "unknown key 'sort_requires.\(inner)' (StyLua has 'enabled')",
                        line: entry.line, column: entry.column)
                }
                guard let flag = entry.value.boolean else {
                    var error = mistyped("sort_requires.enabled", "true or false", path)
                    (error.line, error.column) = (entry.line, entry.column)
                    throw error
                }
                options.sortRequires = flag
            }
        default:
            throw ConfigurationError(path: path, message: "unknown key '\(key)': StyLua has \(knownKeys)")
        }
    }

    static let knownKeys =
        "column_width, line_endings, indent_type, indent_width, quote_style, call_parentheses, "
        + "collapse_simple_statement, space_after_function_names, sort_requires, syntax"

    private static func positive(_ key: String, _ value: TOMLValue, _ path: String)
        throws(ConfigurationError)
        -> Int
    {
        guard let number = value.integer, number > 0, let width = Int(exactly: number) else {
            throw mistyped(key, "a positive whole number", path)
        }
        return width
    }

    private static func choice<Option: RawRepresentable & CaseIterable>(
        _ key: String, _ value: TOMLValue, _ path: String
    ) throws(ConfigurationError) -> Option where Option.RawValue == String {
        let names = Option.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let text = value.string, let option = Option(rawValue: text) else {
            throw mistyped(key, "one of \(names)", path)
        }
        return option
    }

    private static func mistyped(_ key: String, _ expected: String, _ path: String) -> ConfigurationError {
        ConfigurationError(path: path, message: "key '\(key)' must be \(expected)")
    }
}
