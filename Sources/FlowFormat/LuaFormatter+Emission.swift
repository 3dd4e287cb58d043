import LuaSyntax

/// Printing as the layout is made: the statements of a block outside any expression (the
/// file's, those of the compound statements in it, and those of the functions formatting
/// keeps on a statement's line: `local f = function`, `return function`, a call's last
/// argument, LuaFormatter+EmittedCalls; and the fields of tables broken in the source,
/// LuaFormatter+EmittedTables) are printed one after another into the output, each as soon as it is formatted,
/// instead of first becoming one layout for the whole file. A statement that takes the fast
/// path (LuaFormatter+SettledStatements) is written from its bytes without a `Doc`; others are
/// laid out as before and printed at once; a compound statement prints its header, its
/// blocks (emitted in turn) and its closing keyword. The output is the same: every part
/// printed ends where a line break follows, and the printer looks ahead only to the next line
/// break (`DocPrinter.append`). What it saves: the layout's nodes for the file's structure,
/// a `String` for each settled statement, and freeing the whole layout at the end.
extension LuaFormatter {
    /// Whether statements may be printed as they are formatted: not for a range (statements
    /// outside it become their source after they are formatted) nor when simple statements
    /// collapse (an `if` or a function whose block is laid out inside a group).
    var canEmit: Bool { options.emitsStatements && range == nil && options.collapseSimpleStatement == .never }

    /// Adds `doc` to `parts`, or prints it at the block's indentation when `emitting`.
    mutating func put(_ doc: Doc, _ parts: inout [Doc], _ emitting: Bool) {
        if emitting {
            printer!.append(doc, indent: depth)
        } else {
            parts.append(doc)
        }
    }

    mutating func put(_ docs: [Doc], _ parts: inout [Doc], _ emitting: Bool) {
        if emitting {
            for doc in docs { printer!.append(doc, indent: depth) }
        } else {
            parts.append(contentsOf: docs)
        }
    }

    /// A statement and the `;` kept or dropped after it; printed together when `emitting`, so a
    /// kept `;` is measured on the statement's line as it is in one layout.
    mutating func putStatement(_ doc: Doc, semicolon: Doc, _ parts: inout [Doc], _ emitting: Bool) {
        if semicolon.isEmptyConcat {
            put(doc, &parts, emitting)
        } else if emitting {
            put(.concat([doc, semicolon]), &parts, emitting)
        } else {
            parts.append(doc)
            parts.append(semicolon)
        }
    }

    /// Formats and prints statement `id` of a block being emitted.
    mutating func emitStatement(_ id: SyntaxTree.NodeID, hasNext: Bool) {
        var none: [Doc] = []
        if emitSettledStatement(id) {
            put(semicolons(beforeParenthesis: hasNext), &none, true)
            return
        }
        let rest =
            emitFunctionValue(id) ?? emitTableValue(id) ?? emitCallWithFunction(id) ?? statement(id, emitting: true)
        putStatement(rest, semicolon: semicolons(beforeParenthesis: hasNext), &none, true)
    }

    /// `local f = function(...)`, `t.f = function(...)` or `return function(...)` whose function
    /// holds statements: formatting keeps the function on the statement's line (`assignedValues`,
    /// `returnValues`), so its block is emitted as a function statement's is, one level deeper
    /// than the statement. Prints all but `end`, which it returns (with a dropped `;` after a
    /// `return`); nil when the statement is not one of these, nothing consumed.
    mutating func emitFunctionValue(_ id: SyntaxTree.NodeID) -> Doc? {
        let node = tree[id]
        guard let value = loneValue(node), tree[value].kind == .function, !tree.statements(of: tree[value].c).isEmpty
        else { return nil }
        let isReturn = node.kind == .returnStatement
        if !isReturn {
            // A comment after `=` hangs the value on the lines after it: laid out whole.
            guard let equals = assignToken(), !stream.hasComment(before: equals + 1) else { return nil }
        }
        var head: [Doc]
        switch node.kind {
        case .local: head = [token(.kwLocal), .space, token(.name), .space]
        case .assignment: head = [expression(tree.list(node.a, 1).first!), .space]
        default: head = [token(.kwReturn), .space]
        }
        if !isReturn {
            head.append(token(.assign))
            head.append(.space)
        }
        head.append(token(.kwFunction))
        let end = functionBody(value, definition: false, emitting: true, head: .concat(head))
        guard isReturn, kind.is(.semicolon) else { return end }
        return .concat([end, dropToken(.semicolon)])
    }

    /// The value of `local name = value`, `target = value` or `return value`; nil for others.
    func loneValue(_ node: SyntaxNode) -> SyntaxTree.NodeID? {
        switch node.kind {
        case .local where node.b == 1 && node.c == 1 && kind(at: 2).is(.assign):
            return tree.list(node.a + 1, 1).first!
        case .assignment where node.b == 1 && node.c == 1:
            return tree.list(node.a + 1, 1).first!
        case .returnStatement where node.b == 1:
            return tree.list(node.a, 1).first!
        default:
            return nil
        }
    }

    /// The index of the statement's `=` from the cursor, outside brackets; nil when there is none.
    func assignToken() -> Int? {
        var index = cursor
        var nesting = 0
        while true {
            let kind = stream.tokens[index].kind
            switch kind {
            case .leftParen, .leftBracket, .leftBrace: nesting += 1
            case .rightParen, .rightBracket, .rightBrace: nesting -= 1
            case .assign where nesting == 0: return index
            case .eof: return nil
            default: break
            }
            index += 1
        }
    }

    /// `block` indented on the lines after its keyword and the line of its closing token (as
    /// `body`); printed when `emitting` and the block holds statements.
    mutating func putBody(_ block: SyntaxTree.NodeID, _ parts: inout [Doc], _ emitting: Bool) {
        guard emitting, !tree.statements(of: block).isEmpty else {
            put(body(block), &parts, emitting)
            return
        }
        emitBlock(block)
        printer!.append(.hardLine, indent: depth)
    }

    /// The lines of a block that holds statements, one level deeper, after a line break.
    mutating func emitBlock(_ block: SyntaxTree.NodeID) {
        depth += 1
        printer!.append(.hardLine, indent: depth)
        _ = self.block(block, emitting: true)
        depth -= 1
    }

    /// Prints statement `id` from its bytes when the fast path takes it (as `settledStatement`
    /// would give it as one text); false when not, nothing consumed.
    mutating func emitSettledStatement(_ id: SyntaxTree.NodeID) -> Bool {
        guard let (last, respaced, extra) = settledStatementEnd(id) else { return false }
        var bytes = scratch
        scratch = []
        bytes.removeAll(keepingCapacity: true)
        let source = stream.source
        var range = Int(stream.tokens[cursor].offset)..<stream.end(last)
        if settledBytes(last: last, respaced: respaced, into: &bytes) { range = -1..<0 }
        let fits = (range.lowerBound < 0 ? bytes : source).withUnsafeBufferPointer { buffer in
            let text = range.lowerBound < 0 ? buffer : UnsafeBufferPointer(rebasing: buffer[range])
            var width = 0
            for byte in text where byte & 0xC0 != 0x80 { width += 1 }
            // Its length in bytes fits, as `settledStatement` takes it.
            guard (depth + functionIndent) * options.indentColumns + text.count + extra <= options.columnWidth else {
                return false
            }
            printer!.appendText(text, width: width, indent: depth)
            return true
        }
        scratch = bytes
        guard fits else { return false }
        cursor = last + 1
        guard stream.hasComment(before: last + 1) else { return true }
        var parts: [Doc] = []
        appendTrailingComments(of: last, to: &parts)
        for doc in parts { printer!.append(doc, indent: depth) }
        return true
    }
}
