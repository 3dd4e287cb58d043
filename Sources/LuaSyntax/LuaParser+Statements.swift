extension LuaParser {
    /// One statement, or -1 for an empty one (`;`).
    mutating func parseStatement() throws(LuaSyntaxError) -> Int32 {
        try enterLevel()
        defer { depth -= 1 }
        let line = token.line, column = token.column
        switch token.kind {
        case .semicolon:
            try advance()
            return -1
        case .kwIf:
            return try parseIf()
        case .kwWhile:
            try advance()
            let condition = try parseExpression()
            try expect(.kwDo)
            let body = try parseBlock()
            try expectMatch(.kwEnd, opening: .kwWhile, line: line)
            return add(.whileLoop, line: line, column: column, a: condition, b: body)
        case .kwDo:
            try advance()
            let body = try parseBlock()
            try expectMatch(.kwEnd, opening: .kwDo, line: line)
            return add(.doBlock, line: line, column: column, a: body)
        case .kwFor:
            return try parseFor()
        case .kwRepeat:
            try advance()
            let body = try parseBlock()
            try expectMatch(.kwUntil, opening: .kwRepeat, line: line)
            let condition = try parseExpression()
            return add(.repeatLoop, line: line, column: column, a: body, b: condition)
        case .kwFunction:
            return try parseFunctionStatement()
        case .kwLocal:
            try advance()
            if token.kind == .kwFunction {
                try advance()
                let nameLine = token.line, nameColumn = token.column
                let name = add(.localName, line: nameLine, column: nameColumn, a: try expectName())
                let function = try parseFunctionBody(isMethod: false, line: line, column: column)
                return add(.localFunction, line: line, column: column, a: name, b: function)
            }
            return try parseLocal(line: line, column: column)
        case .doubleColon:
            try advance()
            let name = try expectName()
            try expect(.doubleColon)
            return add(.label, line: line, column: column, a: name)
        case .kwReturn:
            return try parseReturn()
        case .kwBreak:
            try advance()
            return add(.breakStatement, line: line, column: column)
        case .kwGoto:
            try advance()
            return add(.gotoStatement, line: line, column: column, a: try expectName())
        default:
            return try parseExpressionStatement()
        }
    }

    private mutating func parseIf() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        let mark = scratch.count
        repeat {
            try advance()  // 'if' or 'elseif'
            scratch.append(try parseExpression())
            try expect(.kwThen)
            scratch.append(try parseBlock())
        } while token.kind == .kwElseif
        var elseBlock: Int32 = -1
        if token.kind == .kwElse {
            try advance()
            elseBlock = try parseBlock()
        }
        try expectMatch(.kwEnd, opening: .kwIf, line: line)
        let pairs = Int32((scratch.count - mark) / 2)
        return add(.ifStatement, line: line, column: column, a: commit(from: mark), b: pairs, c: elseBlock)
    }

    private mutating func parseFor() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        try advance()
        let mark = scratch.count
        let nameLine = token.line, nameColumn = token.column
        scratch.append(add(.localName, line: nameLine, column: nameColumn, a: try expectName()))
        switch token.kind {
        case .assign:
            try advance()
            scratch.append(try parseExpression())
            try expect(.comma)
            scratch.append(try parseExpression())
            if token.kind == .comma {
                try advance()
                scratch.append(try parseExpression())
            }
            try expect(.kwDo)
            let body = try parseBlock()
            try expectMatch(.kwEnd, opening: .kwFor, line: line)
            let count = Int32(scratch.count - mark)
            return add(.numericFor, line: line, column: column, a: commit(from: mark), b: count, c: body)
        case .comma, .kwIn:
            while token.kind == .comma {
                try advance()
                let nextLine = token.line, nextColumn = token.column
                scratch.append(add(.localName, line: nextLine, column: nextColumn, a: try expectName()))
            }
            let names = Int32(scratch.count - mark)
            try expect(.kwIn)
            try parseExpressionList()
            let expressions = Int32(scratch.count - mark) - names
            try expect(.kwDo)
            scratch.append(try parseBlock())
            try expectMatch(.kwEnd, opening: .kwFor, line: line)
            return add(.genericFor, line: line, column: column, a: commit(from: mark), b: names, c: expressions)
        default:
            throw syntaxError("'=' or 'in' expected")
        }
    }

    private mutating func parseFunctionStatement() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        try advance()
        let nameLine = token.line, nameColumn = token.column
        var target = add(.name, line: nameLine, column: nameColumn, a: try expectName())
        var isMethod = false
        while token.kind == .dot || token.kind == .colon {
            isMethod = token.kind == .colon
            try advance()
            let keyLine = token.line, keyColumn = token.column
            let key = add(.string, op: 1, line: keyLine, column: keyColumn, a: try expectName())
            target = add(.index, op: 1, line: nameLine, column: nameColumn, a: target, b: key)
            if isMethod { break }
        }
        let function = try parseFunctionBody(isMethod: isMethod, line: line, column: column)
        return add(.functionStatement, line: line, column: column, a: target, b: function)
    }

    private mutating func parseLocal(line: Int32, column: Int32) throws(LuaSyntaxError) -> Int32 {
        let mark = scratch.count
        var closeCount = 0
        repeat {
            if scratch.count > mark { try advance() }  // the ',' between names
            let nameLine = token.line, nameColumn = token.column
            let symbol = try expectName()
            var attribute: UInt8 = 0
            if token.kind == .less {
                try advance()
                let attributeName = lexerText(symbol: try expectName())
                switch attributeName {
                case "const": attribute = 1
                case "close":
                    attribute = 2
                    closeCount += 1
                default:
                    throw LuaSyntaxError(
                        message: "unknown attribute '\(attributeName)'", line: Int(token.line),
                        column: Int(token.column))
                }
                try expect(.greater)
                attributeCount += 1
            }
            scratch.append(add(.localName, op: attribute, line: nameLine, column: nameColumn, a: symbol))
        } while token.kind == .comma
        if closeCount > 1 {
            throw LuaSyntaxError(
                message: "multiple to-be-closed variables in local list", line: Int(line), column: Int(column))
        }
        let names = Int32(scratch.count - mark)
        if token.kind == .assign {
            try advance()
            try parseExpressionList()
        }
        let values = Int32(scratch.count - mark) - names
        return add(.local, line: line, column: column, a: commit(from: mark), b: names, c: values)
    }

    private func lexerText(symbol: Int32) -> String {
        // Attribute names are rare: decode from the token just consumed rather than keep every symbol's text.
        if symbol < -1 {
            return LuaLexer.name(at: Int(-2 - symbol), in: UnsafeBufferPointer(start: lexer.base, count: lexer.end))
        }
        return symbol < 0 ? "" : lexer.symbols.text(of: symbol)
    }

    private mutating func parseExpressionStatement() throws(LuaSyntaxError) -> Int32 {
        let line = token.line, column = token.column
        let first = try parseSuffixedExpression()
        if token.kind == .assign || token.kind == .comma {
            let mark = scratch.count
            try requireAssignable(first)
            scratch.append(first)
            // Lua's compiler recurses once per further target (`restassign`), a C level each,
            // and parses the values at the deepest of them.
            let outerDepth = depth
            defer { depth = outerDepth }
            while token.kind == .comma {
                try advance()
                let target = try parseSuffixedExpression()
                try requireAssignable(target)
                scratch.append(target)
                try enterLevel()
            }
            let targets = Int32(scratch.count - mark)
            try expect(.assign)
            try parseExpressionList()
            let values = Int32(scratch.count - mark) - targets
            return add(.assignment, line: line, column: column, a: commit(from: mark), b: targets, c: values)
        }
        let kind = nodes[Int(first)].kind
        guard kind == .call || kind == .methodCall else { throw syntaxError("syntax error") }
        return add(.callStatement, line: line, column: column, a: first)
    }

    private func requireAssignable(_ target: Int32) throws(LuaSyntaxError) {
        let kind = nodes[Int(target)].kind
        guard kind == .name || kind == .index else { throw syntaxError("syntax error") }
    }
}
