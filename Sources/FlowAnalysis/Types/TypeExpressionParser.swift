/// Reads a LuaCATS type expression from the start of a text: unions (`a|b`), optionals
/// (`T?`), arrays (`T[]`), `table<K, V>`, `fun(a: T, ...): R1, R2`, `{ name: T }`, literal
/// strings, numbers and booleans, and names (`vim.api.keyset`, `Class<T>`). What follows the
/// type (a description) is left to the caller. Nesting is bounded, so a hostile annotation
/// cannot exhaust the stack.
struct TypeExpressionParser {
    struct Failure: Error, Equatable {
        /// 0-based byte offset in the text where the type stops making sense.
        var offset: Int
        var message: String
    }

    private let bytes: [UInt8]
    private(set) var position: Int
    private var depth = 0
    /// Open brackets around the current place: a `fun(): R1, R2` return list takes commas only
    /// outside them (in `table<K, fun(): V>` the comma is the table's).
    private var brackets = 0
    private static let maximumDepth = 64

    init(_ text: Substring) {
        bytes = Array(text.utf8)
        position = 0
    }

    /// The type at the start of `text`, and the byte offset right after it.
    static func parse(_ text: Substring) -> Result<(LuaType, Int), Failure> {
        var parser = TypeExpressionParser(text)
        do {
            let type = try parser.union()
            return .success((type, parser.position))
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(Failure(offset: 0, message: "\(error)"))
        }
    }

    // MARK: Characters

    private mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
    }

    /// The next non-space byte, without taking it.
    private mutating func peek() -> UInt8? {
        skipSpaces()
        return position < bytes.count ? bytes[position] : nil
    }

    private mutating func take(_ character: Character) -> Bool {
        guard peek() == character.asciiValue else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ character: Character) throws {
        guard take(character) else { throw fail("expected '\(character)'") }
    }

    private func fail(_ message: String) -> Failure { Failure(offset: min(position, bytes.count), message: message) }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
            || byte >= 0x80
    }

    /// A dotted name (`vim.api.keyset`, `string`), or nil when none starts here.
    private mutating func name() -> String? {
        skipSpaces()
        let start = position
        while position < bytes.count,
            Self.isNameByte(bytes[position])
                || (bytes[position] == UInt8(ascii: ".") && position > start && position + 1 < bytes.count
                    && Self.isNameByte(bytes[position + 1]))
                || (bytes[position] == UInt8(ascii: "-") && position > start && position + 1 < bytes.count
                    && Self.isNameByte(bytes[position + 1]) && bytes[position - 1] != UInt8(ascii: "-"))
        {
            position += 1
        }
        guard position > start, !(bytes[start] >= 0x30 && bytes[start] <= 0x39) else {
            position = start
            return nil
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    // MARK: Grammar

    /// `a | b | c`.
    private mutating func union() throws -> LuaType {
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maximumDepth else { throw fail("type nested too deeply") }
        var members = [try postfix()]
        while true {
            let save = position
            guard take("|") else { break }
            // `---@alias A "x" | "y"` continues; a trailing `|` is an error.
            guard peek() != nil else {
                position = save
                throw fail("expected a type after '|'")
            }
            members.append(try postfix())
        }
        return members.count == 1 ? members[0] : .union(members)
    }

    /// A primary type followed by `[]` and `?` suffixes.
    private mutating func postfix() throws -> LuaType {
        var type = try primary()
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "["), position + 1 < bytes.count,
                bytes[position + 1] == UInt8(ascii: "]")
            {
                position += 2
                type = .array(type)
            } else if bytes[position] == UInt8(ascii: "?") {
                position += 1
                type = type.optional
            } else if bytes[position...].starts(with: Array("...".utf8)) {
                // `T...`: a generic pack, any number of values.
                position += 3
                type = .unknown
            } else {
                break
            }
        }
        return type
    }

    private mutating func primary() throws -> LuaType {
        guard let next = peek() else { throw fail("expected a type") }
        switch next {
        case UInt8(ascii: "("):
            position += 1
            brackets += 1
            let inner = try union()
            try expect(")")
            brackets -= 1
            return inner
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
            return try quoted(next)
        case UInt8(ascii: "{"):
            return try shape()
        case UInt8(ascii: "["):
            // `[string, integer]`: a tuple, a table of known positions.
            position += 1
            brackets += 1
            if !take("]") {
                repeat { _ = try union() } while take(",")
                try expect("]")
            }
            brackets -= 1
            return .table
        case UInt8(ascii: "-"), 0x30...0x39:
            return try numeral()
        case UInt8(ascii: "."):
            guard bytes[position...].starts(with: Array("...".utf8)) else { throw fail("expected a type") }
            position += 3
            return .any
        default:
            break
        }
        guard let word = name() else { throw fail("expected a type") }
        switch word {
        case "fun": return try function()
        case "table" where peek() == UInt8(ascii: "<"):
            position += 1
            brackets += 1
            let key = try union()
            try expect(",")
            let value = try union()
            try expect(">")
            brackets -= 1
            return .dictionary(key, value)
        default:
            if peek() == UInt8(ascii: "<") {
                position += 1
                brackets += 1
                var arguments = [try union()]
                while take(",") { arguments.append(try union()) }
                try expect(">")
                brackets -= 1
                return .applied(word, arguments)
            }
            return Self.builtin(word) ?? .named(word)
        }
    }

    static func builtin(_ word: String) -> LuaType? {
        switch word {
        case "any": return .any
        case "unknown": return .unknown
        case "nil", "void": return .nil
        case "boolean", "bool": return .boolean
        case "true", "false": return .literal(word)
        case "number": return .number
        case "integer": return .integer
        case "string": return .string
        case "table": return .table
        case "userdata", "lightuserdata": return .userdata
        case "thread": return .thread
        case "function": return .function(nil)
        case "self": return .unknown
        default: return nil
        }
    }

    private mutating func quoted(_ quote: UInt8) throws -> LuaType {
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != quote {
            position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard position < bytes.count else { throw fail("unfinished string literal") }
        position += 1
        // A backquoted name is a type written as a literal (`T`): unknown to these checks.
        if quote == UInt8(ascii: "`") { return .unknown }
        let content = String(decoding: bytes[(start + 1)..<(position - 1)], as: UTF8.self)
        return .literal("\"" + content + "\"")
    }

    private mutating func numeral() throws -> LuaType {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        while position < bytes.count, Self.isNameByte(bytes[position]) || bytes[position] == UInt8(ascii: ".") {
            position += 1
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        let isHex = text.lowercased().hasPrefix("0x") && Int(text.dropFirst(2), radix: 16) != nil
        guard Double(text) != nil || isHex else {
            position = start
            throw fail("expected a type")
        }
        return .literal(text)
    }

    /// `{ name: T, [K]: V }`: a shape (an index signature makes it a dictionary).
    private mutating func shape() throws -> LuaType {
        position += 1
        brackets += 1
        defer { brackets -= 1 }
        var fields: [String: LuaType] = [:]
        var index: (LuaType, LuaType)?
        if take("}") { return .table }
        repeat {
            if peek() == UInt8(ascii: "}") { break }
            if take("[") {
                let key = try union()
                try expect("]")
                _ = take("?")
                try expect(":")
                index = (key, try union())
                continue
            }
            guard let field = name() else { throw fail("expected a field name") }
            let isOptional = take("?")
            try expect(":")
            let type = try union()
            fields[field] = isOptional ? type.optional : type
        } while take(",")
        try expect("}")
        if let index, fields.isEmpty { return .dictionary(index.0, index.1) }
        return .shape(fields)
    }

    /// A parameter's name in `fun(...)`: a plain name (`self` too).
    private mutating func parameterName() -> String? {
        skipSpaces()
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    private mutating func takeEllipsis() -> Bool {
        skipSpaces()
        guard bytes[position...].starts(with: Array("...".utf8)) else { return false }
        position += 3
        return true
    }

    /// `fun(a: T, b?: U, ...: V): R1, R2` after the word `fun`.
    private mutating func function() throws -> LuaType {
        var signature = FunctionType()
        guard take("(") else { return .function(nil) }
        brackets += 1
        if !take(")") {
            repeat {
                if takeEllipsis() {
                    signature.isVariadic = true
                    if take(":") { _ = try union() }
                    continue
                }
                guard let parameter = parameterName() else { throw fail("expected a parameter name") }
                let isOptional = position < bytes.count && bytes[position] == UInt8(ascii: "?")
                if isOptional { position += 1 }
                var type = LuaType.any
                if take(":") { type = try union() }
                signature.parameters.append(
                    FunctionType.Parameter(name: parameter, type: type, isOptional: isOptional || type.acceptsNil))
            } while take(",")
            try expect(")")
        }
        brackets -= 1
        guard take(":") else { return .function(signature) }
        let parenthesised = take("(")
        if parenthesised { brackets += 1 }
        let allowsList = parenthesised || brackets == 0
        repeat {
            if takeEllipsis() {
                signature.returnsVariadic = true
                break
            }
            let type = try union()
            var name = ""
            if parenthesised, peek().map(Self.isNameByte) == true, let word = parameterName() { name = word }
            signature.returns.append(FunctionType.Return(type: type, name: name))
        } while allowsList && take(",")
        if parenthesised {
            try expect(")")
            brackets -= 1
        }
        return .function(signature)
    }
}
