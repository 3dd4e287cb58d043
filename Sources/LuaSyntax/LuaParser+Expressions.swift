extension LuaParser {
    /// Lua's operator priorities (left, right) from `lparser.c`; unary operators bind at 12.
    private static let unaryPriority = 12

    @inline(__always)
    private func binaryOperator(_ kind: LuaTokenKind) -> (BinaryOperator, left: Int, right: Int)? {
        switch kind {
        case .plus: return (.add, 10, 10)
        case .minus: return (.subtract, 10, 10)
        case .star: return (.multiply, 11, 11)
        case .percent: return (.modulo, 11, 11)
        case .caret: return (.power, 14, 13)
        case .slash: return (.divide, 11, 11)
        case .doubleSlash: return (.floorDivide, 11, 11)
        case .ampersand: return (.bitwiseAnd, 6, 6)
        case .pipe: return (.bitwiseOr, 4, 4)
        case .tilde: return (.bitwiseXor, 5, 5)
        case .shiftLeft: return (.shiftLeft, 7, 7)
        case .shiftRight: return (.shiftRight, 7, 7)
        case .concat: return (.concat, 9, 8)
        case .equal: return (.equal, 3, 3)
        case .less: return (.less, 3, 3)
        case .lessEqual: return (.lessEqual, 3, 3)
        case .notEqual: return (.notEqual, 3, 3)
        case .greater: return (.greater, 3, 3)
        case .greaterEqual: return (.greaterEqual, 3, 3)
        case .kwAnd: return (.and, 2, 2)
        case .kwOr: return (.or, 1, 1)
        default: return nil
        }
    }

    /// `subexpr` of `lparser.c`: an expression whose binary operators bind tighter than `limit`.
    mutating func parseExpression(limit: Int = 0) throws(LuaSyntaxError) -> Int32 {
        try enterLevel()
        defer { depth -= 1 }
        var left: Int32
        let unary: UnaryOperator?
        switch token.kind {
        case .minus: unary = .negate
        case .kwNot: unary = .not
        case .hash: unary = .length
        case .tilde: unary = .bitwiseNot
        default: unary = nil
        }
        if let unary {
            let line = token.line, column = token.column
            try advance()
            let operand = try parseExpression(limit: LuaParser.unaryPriority)
            left = add(.unary, op: unary.rawValue, line: line, column: column, a: operand)
        } else {
            left = try parseSimpleExpression()
        }
        while let (op, leftPriority, rightPriority) = binaryOperator(token.kind), leftPriority > limit {
            let line = token.line, column = token.column
            try advance()
            let right = try parseExpression(limit: rightPriority)
            left = add(.binary, op: op.rawValue, line: line, column: column, a: left, b: right)
        }
        return left
    }

    private mutating func parseSimpleExpression() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        let node: Int32
        switch token.kind {
        case .number:
            node = add(.number, line: line, column: column, a: token.offset, b: token.length)
        case .string:
            node = add(.string, line: line, column: column, a: token.symbol)
        case .kwNil:
            node = add(.nilLiteral, line: line, column: column)
        case .kwTrue:
            node = add(.trueLiteral, line: line, column: column)
        case .kwFalse:
            node = add(.falseLiteral, line: line, column: column)
        case .dots:
            guard isVararg else { throw syntaxError("cannot use '...' outside a vararg function") }
            node = add(.vararg, line: line, column: column)
        case .leftBrace:
            return try parseTable()
        case .kwFunction:
            try advance()
            return try parseFunctionBody(isMethod: false, line: line, column: column)
        default:
            return try parseSuffixedExpression()
        }
        try advance()
        return node
    }

    private mutating func parsePrimaryExpression() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        switch token.kind {
        case .name:
            let node = add(.name, line: line, column: column, a: token.symbol)
            try advance()
            return node
        case .leftParen:
            try advance()
            let inner = try parseExpression()
            try expectMatch(.rightParen, opening: .leftParen, line: line)
            return add(.paren, line: line, column: column, a: inner)
        default:
            throw syntaxError("unexpected symbol")
        }
    }

    /// A primary expression followed by any number of `.name`, `[key]`, `:m(args)` and `(args)`.
    mutating func parseSuffixedExpression() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        var expression = try parsePrimaryExpression()
        while true {
            switch token.kind {
            case .dot:
                try advance()
                let keyLine = token.line, keyColumn = token.column
                let key = add(.string, op: 1, line: keyLine, column: keyColumn, a: try expectName())
                expression = add(.index, op: 1, line: line, column: column, a: expression, b: key)
            case .leftBracket:
                try advance()
                let key = try parseExpression()
                try expect(.rightBracket)
                expression = add(.index, line: line, column: column, a: expression, b: key)
            case .colon:
                try advance()
                let mark = scratch.count
                let nameLine = token.line, nameColumn = token.column
                scratch.append(add(.string, op: 1, line: nameLine, column: nameColumn, a: try expectName()))
                try parseArguments()
                let count = Int32(scratch.count - mark - 1)
                expression = add(
                    .methodCall, line: line, column: column, a: expression, b: commit(from: mark), c: count)
            case .leftParen, .string, .leftBrace:
                let mark = scratch.count
                try parseArguments()
                let count = Int32(scratch.count - mark)
                expression = add(.call, line: line, column: column, a: expression, b: commit(from: mark), c: count)
            default:
                return expression
            }
        }
    }

    /// Call arguments onto `scratch`: `(explist)`, a table constructor, or a string.
    private mutating func parseArguments() throws(LuaSyntaxError) {
        switch token.kind {
        case .string:
            scratch.append(add(.string, line: token.line, column: token.column, a: token.symbol))
            try advance()
        case .leftBrace:
            scratch.append(try parseTable())
        case .leftParen:
            let line = token.line
            try advance()
            if token.kind != .rightParen { try parseExpressionList() }
            try expectMatch(.rightParen, opening: .leftParen, line: line)
        default:
            throw syntaxError("function arguments expected")
        }
    }

    private mutating func parseTable() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        try expect(.leftBrace)
        let mark = scratch.count
        while token.kind != .rightBrace {
            let fieldLine = token.line, fieldColumn = token.column
            if token.kind == .name, try peek() == .assign {
                let key = add(.string, op: 1, line: fieldLine, column: fieldColumn, a: token.symbol)
                try advance()
                try advance()
                let value = try parseExpression()
                scratch.append(add(.keyedField, line: fieldLine, column: fieldColumn, a: key, b: value))
            } else if token.kind == .leftBracket {
                try advance()
                let key = try parseExpression()
                try expect(.rightBracket)
                try expect(.assign)
                let value = try parseExpression()
                scratch.append(add(.keyedField, line: fieldLine, column: fieldColumn, a: key, b: value))
            } else {
                let value = try parseExpression()
                scratch.append(add(.positionalField, line: fieldLine, column: fieldColumn, a: value))
            }
            guard token.kind == .comma || token.kind == .semicolon else { break }
            try advance()
        }
        try expectMatch(.rightBrace, opening: .leftBrace, line: line)
        let count = Int32(scratch.count - mark)
        return add(.table, line: line, column: column, a: commit(from: mark), b: count)
    }

    /// `(params) block end` after `function` (and its name): a `function` node.
    mutating func parseFunctionBody(isMethod: Bool, line: Int32, column: Int32) throws(LuaSyntaxError) -> Int32 {
        try expect(.leftParen)
        let mark = scratch.count
        var takesVarargs = false
        if token.kind != .rightParen {
            repeat {
                if scratch.count > mark { try advance() }  // the ','
                switch token.kind {
                case .name:
                    scratch.append(add(.localName, line: token.line, column: token.column, a: token.symbol))
                    try advance()
                case .dots:
                    try advance()
                    takesVarargs = true
                default:
                    throw syntaxError("<name> or '...' expected")
                }
            } while !takesVarargs && token.kind == .comma
        }
        try expect(.rightParen)
        let parameters = Int32(scratch.count - mark)
        let start = commit(from: mark)
        let outerVararg = isVararg
        isVararg = takesVarargs
        let body = try parseBlock()
        isVararg = outerVararg
        try expectMatch(.kwEnd, opening: .kwFunction, line: line)
        let flags: UInt8 = (takesVarargs ? 1 : 0) | (isMethod ? 2 : 0)
        return add(.function, op: flags, line: line, column: column, a: start, b: parameters, c: body)
    }
}
