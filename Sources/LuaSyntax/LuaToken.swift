/// The kinds of token in Lua 5.4 source. Keywords come first, in the order the
/// symbol table interns them, so a name's symbol id maps straight to its keyword.
public enum LuaTokenKind: UInt8, Sendable, BitwiseCopyable {
    // Keywords: symbol ids 0..<21 (see `LuaTokenKind.keywords`).
    case kwAnd, kwBreak, kwDo, kwElse, kwElseif, kwEnd, kwFalse, kwFor, kwFunction, kwGoto, kwIf
    case kwIn, kwLocal, kwNil, kwNot, kwOr, kwRepeat, kwReturn, kwThen, kwTrue, kwUntil, kwWhile

    case eof, name, string, number

    case plus, minus, star, slash, doubleSlash, percent, caret, hash
    case ampersand, tilde, pipe, shiftLeft, shiftRight
    case equal, notEqual, lessEqual, greaterEqual, less, greater, assign
    case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket
    case doubleColon, semicolon, colon, comma, dot, concat, dots

    /// The reserved words, in the order of the keyword cases above.
    package static let keywords: [String] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    /// Compares the tags, inlined: the synthesized `==` is a call from other modules (the
    /// formatter compares kinds at every token).
    @inlinable @inline(__always)
    public static func == (lhs: LuaTokenKind, rhs: LuaTokenKind) -> Bool { lhs.rawValue == rhs.rawValue }

    /// How the token reads in an error message.
    package var display: String {
        if rawValue < LuaTokenKind.eof.rawValue { return LuaTokenKind.keywords[Int(rawValue)] }
        switch self {
        case .eof: return "<eof>"
        case .name: return "<name>"
        case .string: return "<string>"
        case .number: return "<number>"
        case .plus: return "+"
        case .minus: return "-"
        case .star: return "*"
        case .slash: return "/"
        case .doubleSlash: return "//"
        case .percent: return "%"
        case .caret: return "^"
        case .hash: return "#"
        case .ampersand: return "&"
        case .tilde: return "~"
        case .pipe: return "|"
        case .shiftLeft: return "<<"
        case .shiftRight: return ">>"
        case .equal: return "=="
        case .notEqual: return "~="
        case .lessEqual: return "<="
        case .greaterEqual: return ">="
        case .less: return "<"
        case .greater: return ">"
        case .assign: return "="
        case .leftParen: return "("
        case .rightParen: return ")"
        case .leftBrace: return "{"
        case .rightBrace: return "}"
        case .leftBracket: return "["
        case .rightBracket: return "]"
        case .doubleColon: return "::"
        case .semicolon: return ";"
        case .colon: return ":"
        case .comma: return ","
        case .dot: return "."
        case .concat: return ".."
        case .dots: return "..."
        default: return "?"
        }
    }
}

/// One token: where it starts, and for names and strings the interned symbol. 24 bytes.
/// Public, as `LuaTokens` is, only so that other modules inline reading tokens.
public struct LuaToken: Sendable, BitwiseCopyable {
    public var kind: LuaTokenKind = .eof
    /// Whether a comment lies between this token and the one before it (or the prelude): the
    /// lexer sets it as it skips one, so `LuaTokenStream.hasComment(before:)` reads one byte.
    /// It sits in the padding after `kind`, so the token stays 24 bytes.
    public var commentBefore = false
    public var line: Int32 = 1
    public var column: Int32 = 1
    /// Byte offset of the token's first byte.
    public var offset: Int32 = 0
    /// Byte length of the token's source text.
    public var length: Int32 = 0
    /// Symbol id of a name's text or a string literal's decoded value.
    public var symbol: Int32 = -1
}

/// A syntax error, as a value: what went wrong and where (1-based line, byte column).
package struct LuaSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var line: Int
    package var column: Int

    package init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column): \(message)" }
}
