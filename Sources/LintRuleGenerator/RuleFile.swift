import Foundation

/// A problem with the rule files, reported as `file:line: error: message` so the build log (and an
/// editor reading it) points at the place to fix.
struct GeneratorError: Error, CustomStringConvertible {
    var path: String
    var line: Int
    var message: String

    var description: String { "\(path):\(line): error: \(message)" }
}

/// One file under `Lint/Rules/`: the rule type it declares and its catalogue entry, as written.
struct RuleFile {
    /// The file, as given on the command line.
    var path: String
    /// The rule's type: `EmptyDoBlockRule`.
    var typeName: String
    /// The line of `static let entry`.
    var entryLine: Int
    /// The entry's code (`FP456`) and luacheck number (541), read from its literal arguments.
    var code: String
    var luacheck: Int
    /// The entry's expression as the file writes it, `LintCatalogueEntry(...)`, copied into the
    /// catalogue unchanged: its texts are Swift literals the compiler reads, never rewritten here.
    var entry: String

    /// The catalogue's name for the code: the type's name without `Rule`, lower camel case
    /// (`EmptyDoBlockRule`: `emptyDoBlock`).
    var codeName: String {
        let base = typeName.dropLast("Rule".count)
        return base.prefix(1).lowercased() + base.dropFirst()
    }

    /// Reads the rule type and its entry from the text of the file at `path`.
    init(path: String, text: String) throws(GeneratorError) {
        self.path = path
        let fileName = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let declarations = Self.matches(
            #"(?m)^(?:[a-z]+ )*(?:struct|enum) ([A-Za-z0-9_]+)\s*:\s*LintClass\b"#, in: text)
        guard let declaration = declarations.first else {
            throw GeneratorError(
                path: path, line: 1,
                message: "\(fileName).swift declares no lint rule: a file under Lint/Rules/ holds one "
                    + "(`struct \(fileName): LintClass`), or belongs in Lint/")
        }
        let declarationLine = Self.line(of: declaration.range.location, in: text)
        guard declarations.count == 1 else {
            throw GeneratorError(
                path: path, line: Self.line(of: declarations[1].range.location, in: text),
                message: "a second lint rule in \(fileName).swift: each rule has a file of its own")
        }
        typeName = Self.group(1, of: declaration, in: text)
        guard typeName == fileName, typeName.hasSuffix("Rule"), typeName.count > "Rule".count else {
            throw GeneratorError(
                path: path, line: declarationLine,
                message:
                    "the rule \(typeName) is in \(fileName).swift: name the type `<Name>Rule` and its file after it")
        }
        let start = Self.matches(#"static let entry = (LintCatalogueEntry)\("#, in: text)
        guard let opening = start.first else {
            throw GeneratorError(
                path: path, line: declarationLine,
                message:
                    "\(typeName) has no catalogue entry: add `static let entry = LintCatalogueEntry(code: \"FPnnn\", "
                    + "luacheck: NNN, title: \"...\", explanation: \"...\")`")
        }
        let entryStart = opening.range(at: 1).location
        entryLine = Self.line(of: entryStart, in: text)
        let utf16 = Array(text.utf16)
        guard let end = Self.closingParenthesis(in: utf16, from: opening.range.location + opening.range.length) else {
            throw GeneratorError(path: path, line: entryLine, message: "\(typeName)'s entry has no closing parenthesis")
        }
        entry = String(decoding: utf16[entryStart...end], as: UTF16.self)
        let code = Self.matches(
            #"^LintCatalogueEntry\(\s*code: "(FP[0-9]{3})",\s*luacheck: ([0-9]+),\s*title: ""#, in: entry)
        guard let arguments = code.first, entry.contains("explanation:") else {
            throw GeneratorError(
                path: path, line: entryLine,
                message: "\(typeName)'s entry must give its code and luacheck number as literals, in order: "
                    + "`LintCatalogueEntry(code: \"FPnnn\", luacheck: NNN, title: \"...\", explanation: \"...\")`")
        }
        self.code = Self.group(1, of: arguments, in: entry)
        luacheck = Int(Self.group(2, of: arguments, in: entry))!
    }

    private static func matches(_ pattern: String, in text: String) -> [NSTextCheckingResult] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(location: 0, length: text.utf16.count))
    }

    private static func group(_ index: Int, of match: NSTextCheckingResult, in text: String) -> String {
        (text as NSString).substring(with: match.range(at: index))
    }

    /// The 1-based line of the UTF-16 offset `offset`.
    private static func line(of offset: Int, in text: String) -> Int {
        1 + text.utf16.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// The offset of the `)` that closes the one before `start`, skipping string literals (their
    /// escapes, and `"""` ones), or nil.
    private static func closingParenthesis(in text: [UInt16], from start: Int) -> Int? {
        let quote = UInt16(UInt8(ascii: "\"")), backslash = UInt16(UInt8(ascii: "\\"))
        let open = UInt16(UInt8(ascii: "(")), close = UInt16(UInt8(ascii: ")"))
        var depth = 1, index = start
        while index < text.count {
            let unit = text[index]
            if unit == quote {
                let delimiter = index + 2 < text.count && text[index + 1] == quote && text[index + 2] == quote ? 3 : 1
                index += delimiter
                while index < text.count {
                    if text[index] == backslash {
                        index += 2
                    } else if text[index] == quote,
                        delimiter == 1
                            || (index + 2 < text.count && text[index + 1] == quote && text[index + 2] == quote)
                    {
                        index += delimiter
                        break
                    } else {
                        index += 1
                    }
                }
                continue
            }
            if unit == open { depth += 1 }
            if unit == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }
}
