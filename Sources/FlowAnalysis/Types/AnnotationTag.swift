/// The text after one `---@tag`, read by its tag's grammar (LuaCATS, as lua-language-server
/// documents it).
enum AnnotationTag {
    struct Malformed: Error {
        /// 1-based byte column on the line.
        var column: Int
        var message: String
    }

    /// Tags LuaLS knows that these checks do not use.
    static let otherTags: Set<String> = [
        "async", "nodiscard", "see", "source", "version", "package", "private", "protected", "public", "operator",
        "vararg", "module", "as", "export", "language", "readonly", "exact", "virtual", "author", "license",
        "since", "usage", "todo", "brief", "note", "example", "tparam", "treturn", "private_", "local",
    ]

    /// The annotation of `tag` with its text `rest` (starting at 1-based column `column`); nil
    /// for a tag LuaCATS does not have.
    static func parse(tag: String, _ rest: Substring, column: Int) throws -> Annotation.Kind? {
        var cursor = Cursor(text: rest, column: column)
        switch tag {
        case "class": return try cursor.classAnnotation()
        case "field": return try cursor.fieldAnnotation()
        case "param": return try cursor.paramAnnotation()
        case "return": return try cursor.returnAnnotation()
        case "type": return .type(try cursor.type())
        case "alias":
            let name = try cursor.name("an alias name")
            cursor.skipSpaces()
            return .alias(name: name, type: cursor.isAtEnd ? .unknown : try cursor.type())
        case "enum":
            cursor.skipAttribute()
            return .enum(name: try cursor.name("an enum name"))
        case "generic":
            var names: [String] = []
            repeat {
                names.append(try cursor.name("a generic name"))
                if cursor.take(":") { _ = try cursor.type() }
            } while cursor.take(",")
            return .generic(names)
        case "overload":
            let type = try cursor.type()
            guard case .function(let signature) = type else {
                throw Malformed(column: column, message: "expected fun(...)")
            }
            return .overload(signature ?? FunctionType())
        case "cast":
            let name = try cursor.name("a variable name")
            cursor.skipSpaces()
            // `---@cast x -?` takes nil away, `+?` adds it: no new type.
            if cursor.take("+") || cursor.take("-"), cursor.take("?") { return .cast(name: name, type: .unknown) }
            return .cast(name: name, type: try cursor.type())
        case "meta": return .meta
        case "diagnostic":
            let action = try cursor.name("disable, enable, disable-line or disable-next-line")
            var names: [String] = []
            if cursor.take(":") {
                names = cursor.remainder.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
            }
            return .diagnostic(action: action, names: names)
        case "deprecated": return .deprecated(cursor.remainder.trimmingSpaces())
        default:
            return otherTags.contains(tag) ? .other(tag) : nil
        }
    }
}

/// A place in one annotation's text.
struct Cursor {
    var text: Substring
    var column: Int

    var isAtEnd: Bool { text.allSatisfy { $0 == " " || $0 == "\t" } }
    var remainder: String { String(text) }

    mutating func skipSpaces() {
        while let first = text.first, first == " " || first == "\t" {
            text = text.dropFirst()
            column += 1
        }
    }

    mutating func take(_ character: Character) -> Bool {
        skipSpaces()
        guard text.first == character else { return false }
        text = text.dropFirst()
        column += 1
        return true
    }

    /// `(exact)`, `(key)`: an attribute in parentheses, skipped.
    mutating func skipAttribute() {
        skipSpaces()
        guard text.first == "(", let close = text.firstIndex(of: ")") else { return }
        column += text[..<text.index(after: close)].utf8.count
        text = text[text.index(after: close)...]
    }

    mutating func name(_ what: String) throws -> String {
        skipSpaces()
        let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
        guard !word.isEmpty, word.first?.isNumber == false else {
            throw AnnotationTag.Malformed(column: column, message: "expected \(what)")
        }
        text = text.dropFirst(word.count)
        column += word.utf8.count
        return String(word)
    }

    mutating func type() throws -> LuaType {
        skipSpaces()
        switch TypeExpressionParser.parse(text) {
        case .success(let (type, length)):
            let consumed = String(decoding: Array(text.utf8)[..<length], as: UTF8.self)
            text = text.dropFirst(consumed.count)
            column += length
            return type
        case .failure(let failure):
            throw AnnotationTag.Malformed(column: column + failure.offset, message: failure.message)
        }
    }

    /// What is left after a `#` or spaces: the description.
    mutating func description() -> String {
        var rest = remainder.trimmingSpaces()
        if rest.hasPrefix("#") { rest = String(rest.dropFirst()).trimmingSpaces() }
        return rest
    }

    mutating func classAnnotation() throws -> Annotation.Kind {
        skipSpaces()
        let isExact = text.hasPrefix("(exact)")
        skipAttribute()
        let name = try self.name("a class name")
        if take("<") {
            // `---@class Box<T>`: the parameters are generic names.
            while !text.isEmpty, text.first != ">" { text = text.dropFirst() }
            _ = take(">")
        }
        var parents: [LuaType] = []
        if take(":") {
            repeat { parents.append(try type()) } while take(",")
        }
        return .class(name: name, parents: parents, isExact: isExact)
    }

    mutating func fieldAnnotation() throws -> Annotation.Kind {
        skipSpaces()
        let unscoped = self
        for scope in ["private ", "protected ", "public ", "package "] where text.hasPrefix(scope) {
            text = text.dropFirst(scope.count)
            column += scope.utf8.count
        }
        // `---@field package string`: a field named like a scope.
        if text.utf8.count != unscoped.text.utf8.count, let field = try? fieldBody() { return field }
        self = unscoped
        return try fieldBody()
    }

    private mutating func fieldBody() throws -> Annotation.Kind {
        skipAttribute()
        if take("[") {
            _ = try type()
            guard take("]") else { throw AnnotationTag.Malformed(column: column, message: "expected ']'") }
            _ = take("?")
            let type = try self.type()
            return .field(name: nil, type: type, isOptional: false, doc: description())
        }
        let name = try self.name("a field name")
        let isOptional = text.first == "?"
        if isOptional { text = text.dropFirst() }
        let type = try self.type()
        return .field(name: name, type: isOptional ? type.optional : type, isOptional: isOptional, doc: description())
    }

    mutating func paramAnnotation() throws -> Annotation.Kind {
        skipSpaces()
        let name: String
        if text.hasPrefix("...") {
            text = text.dropFirst(3)
            column += 3
            name = "..."
        } else {
            name = try self.name("a parameter name")
        }
        let isOptional = text.first == "?"
        if isOptional { text = text.dropFirst() }
        let type = try self.type()
        return .param(
            FunctionType.Parameter(
                name: name, type: isOptional ? type.optional : type, isOptional: isOptional || type.acceptsNil,
                doc: description()))
    }

    mutating func returnAnnotation() throws -> Annotation.Kind {
        var returns: [FunctionType.Return] = []
        var variadic = false
        repeat {
            skipSpaces()
            if text.hasPrefix("...") {
                text = text.dropFirst(3)
                column += 3
                variadic = true
                break
            }
            let type = try self.type()
            var name = ""
            skipSpaces()
            if text.hasPrefix("...") {
                returns.append(FunctionType.Return(type: type))
                variadic = true
                break
            }
            if let first = text.first, first.isLetter || first == "_" {
                let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                name = String(word)
                text = text.dropFirst(word.count)
            }
            returns.append(FunctionType.Return(type: type, name: name))
        } while take(",")
        if !returns.isEmpty { returns[returns.count - 1].doc = description() }
        return .returns(returns, variadic: variadic)
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
