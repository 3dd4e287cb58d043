import LuaSyntax

/// What `LuaFormatter.settledEnd` keeps as it walks a statement's tokens: the brackets open,
/// whether the text differs from the source, and the tables in it. StyLua reads a table's
/// width in the source, so a table whose source is wider than its text makes the printer
/// measure more than the text: `extra` counts that, and the fast path takes a statement
/// holding a respaced table only when its text fits with it.
struct SettledWalk {
    var previous: LuaTokenKind
    var previousUnary: Bool
    var nesting = 0
    /// The spaces or widths differ from the source's.
    var respaced = false
    /// The text is made from the tokens (respaced, or a string requoted beyond its quotes).
    var rebuilt = false
    var hasTable = false
    /// A string requoted to another length: where the tables fall in the text is not counted.
    var resized = false
    /// A local's names, where `<` opens an attribute (`<const>`), not a comparison.
    var localNames: Bool
    /// The length of the text as formatting writes it, through the current token.
    var formatted: Int
    /// The tables still open: their `{` token and where it is in the text.
    var braces: [(token: Int, at: Int)] = []
    /// How much wider the tables closed so far are in the source than in the text.
    var extra = 0

    init(first: LuaTokenKind, length: Int) {
        previous = first
        previousUnary = LuaFormatter.isUnary(first)
        localNames = first.is(.kwLocal)
        formatted = length
    }

    /// A field's first token, which may open a bracket (`[key] =`, a table, parentheses).
    mutating func openField(_ index: Int) {
        switch previous {
        case .leftBracket, .leftParen: nesting = 1
        case .leftBrace:
            nesting = 1
            hasTable = true
            braces.append((index, 0))
        default: break
        }
    }

    /// Token `index`, of kind `kind`, after its spacing was checked and counted: brackets
    /// counted, a table's widths compared when it closes, a string checked. False when the fast
    /// path must not take the statement.
    @inline(__always)
    mutating func step(_ kind: LuaTokenKind, _ index: Int, _ formatter: LuaFormatter) -> Bool {
        switch kind {
        case .leftParen, .leftBracket: nesting += 1
        case .leftBrace:
            nesting += 1
            hasTable = true
            braces.append((index, formatted - 1))
        case .rightParen, .rightBracket, .rightBrace:
            nesting -= 1
            if nesting < 0 { return false }
            // An empty table is no table to the printer (`{}` whatever its source).
            if kind.is(.rightBrace), let open = braces.popLast(), !previous.is(.leftBrace) {
                let source = formatter.sourceWidth(open: open.token, close: index)
                extra += max(0, source - (formatted - open.at))
            }
        case .string: return string(index, formatter)
        case .semicolon: return nesting == 0
        default: break
        }
        return true
    }

    /// String token `index` (`settledString`), noting whether requoting changes its length.
    mutating func string(_ index: Int, _ formatter: LuaFormatter) -> Bool {
        var lengthChanged = false
        guard formatter.settledString(index, &lengthChanged, &rebuilt) else { return false }
        if lengthChanged {
            respaced = true
            resized = true
        }
        return true
    }

    /// The walk's result when the statement ends at token `last`: whether its text is made from
    /// its tokens, and what to count beyond its length when measuring it. A respaced statement
    /// holding a table is measured with its tables' source widths, and one level deeper (a
    /// table beside other arguments breaks when it does not fit alone on a line one level
    /// deeper, `whenTableBreaks`); nil when a string's new length leaves that unknown.
    func end(_ last: Int, _ formatter: LuaFormatter) -> (last: Int, respaced: Bool, extra: Int)? {
        guard respaced && hasTable else { return (last, respaced || rebuilt, 0) }
        if resized { return nil }
        return (last, true, extra + formatter.options.indentColumns)
    }
}
