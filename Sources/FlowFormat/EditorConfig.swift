import FlowSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `.editorconfig` file: its sections, each a glob and its properties. StyLua falls back
/// to these when no `stylua.toml` applies (indent_style, indent_size, tab_width,
/// max_line_length, end_of_line, quote_type, call_parentheses, collapse_simple_statement).
struct EditorConfig {
    let path: String
    let folder: String
    var isRoot = false
    var sections: [(glob: String, properties: [(String, String)])] = []

    init(text: String, path: String, folder: String) {
        self.path = path
        self.folder = folder
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = String(raw).trimmingSpaces()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                sections.append((String(line.dropFirst().dropLast()), []))
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingSpaces().lowercased()
            let value = String(line[line.index(after: equals)...]).trimmingSpaces()
            if sections.isEmpty {
                if key == "root" { isRoot = value.lowercased() == "true" }
            } else {
                sections[sections.count - 1].properties.append((key, value))
            }
        }
    }

    func apply(to options: inout FormatOptions, for file: String) throws(ConfigurationError) {
        let relative = file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : file
        for section in sections where Self.matches(section.glob, relative) {
            for (key, value) in section.properties { try apply(key, value.lowercased(), to: &options) }
        }
    }

    private func apply(_ key: String, _ value: String, to options: inout FormatOptions) throws(ConfigurationError) {
        switch key {
        case "indent_style":
            if value == "tab" { options.indentType = .tabs } else if value == "space" { options.indentType = .spaces }
        case "indent_size", "tab_width":
            if let width = Int(value), width > 0 { options.indentWidth = width }
        case "max_line_length":
            if let width = Int(value), width > 0 { options.columnWidth = width }
            if value == "off" { options.columnWidth = Int.max / 4 }
        case "end_of_line":
            if value == "lf" { options.lineEndings = .unix } else if value == "crlf" { options.lineEndings = .windows }
        case "quote_type":
            switch value {
            case "double": options.quoteStyle = .autoPreferDouble
            case "single": options.quoteStyle = .autoPreferSingle
            case "auto": options.quoteStyle = .autoPreferDouble
            default: throw ConfigurationError(path: path, message: "quote_type must be double, single or auto")
            }
        case "call_parentheses":
            let option = FormatOptions.CallParentheses.allCases.first { $0.rawValue.lowercased() == value }
            guard let option else { throw ConfigurationError(path: path, message: "call_parentheses: unknown value") }
            options.callParentheses = option
        case "collapse_simple_statement":
            let option = FormatOptions.CollapseSimpleStatement.allCases.first { $0.rawValue.lowercased() == value }
            guard let option else {
                throw ConfigurationError(path: path, message: "collapse_simple_statement: unknown value")
            }
            options.collapseSimpleStatement = option
        default:
            break  // other editors' properties
        }
    }

    /// EditorConfig's globs: a pattern without `/` matches the name in any folder; `{a,b}`
    /// alternatives are expanded; the rest is `fnmatch`'s.
    static func matches(_ glob: String, _ relative: String) -> Bool {
        for pattern in expand(glob) {
            let anchored = pattern.contains("/")
            let target = anchored ? relative : String(relative.split(separator: "/").last ?? "")
            var cleaned = anchored && pattern.hasPrefix("/") ? String(pattern.dropFirst()) : pattern
            cleaned = cleaned.replacingAll("**", with: "*")
            if fnmatch(cleaned, target, 0) == 0 { return true }
        }
        return false
    }

    static func expand(_ glob: String) -> [String] {
        guard let open = glob.firstIndex(of: "{"), let close = glob[open...].firstIndex(of: "}") else { return [glob] }
        let head = glob[..<open], tail = glob[glob.index(after: close)...]
        return glob[glob.index(after: open)..<close].split(separator: ",", omittingEmptySubsequences: false).flatMap {
            expand(String(head) + String($0) + String(tail))
        }
    }
}
