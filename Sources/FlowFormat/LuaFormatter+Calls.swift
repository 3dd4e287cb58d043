import LuaSyntax

extension LuaFormatter {
    /// How a call's argument lays out: StyLua tells the arguments that span lines on their own
    /// (a function with a body, a table kept broken) from the others.
    struct Argument {
        var doc: Doc
        var spansLines: Bool
        var isTable: Bool
    }

    var callSpace: Doc {
        options.spaceAfterFunctionNames == .calls || options.spaceAfterFunctionNames == .always ? .space : .empty
    }

    /// A call's parentheses, after the space `space_after_function_names` may ask for.
    func spaced(_ call: Doc) -> Doc {
        options.spaceAfterFunctionNames == .calls || options.spaceAfterFunctionNames == .always
            ? .concat([.space, call]) : call
    }

    var definitionSpace: Doc {
        options.spaceAfterFunctionNames == .definitions || options.spaceAfterFunctionNames == .always ? .space : .empty
    }

    /// The arguments of a call: `(a, b)`, or a lone string or table, with or without
    /// parentheses as `call_parentheses` says.
    /// `commentsSince`: the comment count before the call's `:` (StyLua expands the arguments
    /// of a method call whose `:` has a comment before it).
    mutating func arguments(_ call: SyntaxTree.NodeID, followedBySuffix: Bool, commentsSince: Int? = nil) -> Doc {
        let values = tree.arguments(of: call)  // a slice of the tree's lists
        let first = values.startIndex
        if kind.is(.string) || kind.is(.leftBrace) {
            let isString = kind.is(.string)
            let bare = keepsBareArgument(isString: isString, hadParentheses: false, followedBySuffix: followedBySuffix)
            let index = cursor
            let argument =
                isString
                ? Argument(doc: stringToken(keepingTrailing: bare), spansLines: false, isTable: false)
                : tableArgument(values[first])
            if bare { return .concat([.space, argument.doc]) }
            // The comment after a bare string goes after the parentheses it gets.
            var trailing: [Doc] = []
            if isString { appendTrailingComments(of: index, to: &trailing) }
            let call = parenthesized([argument], open: .text("("), close: .text(")"), comments: false)
            return trailing.isEmpty ? spaced(call) : .concat([callSpace, call] + trailing)
        }
        let commentsBefore = commentsSince ?? commentCount
        if values.count == 1, options.callParentheses != .input, options.callParentheses != .always {
            let only = tree[values[first]]
            let isString = only.kind == .string, isTable = only.kind == .table
            let saved = (cursor, commentCount, leadingDoneFor)
            if isString || isTable,
                keepsBareArgument(isString: isString, hadParentheses: true, followedBySuffix: followedBySuffix)
            {
                _ = token(.leftParen)
                let argument = self.argument(values[first])
                _ = token(.rightParen)
                if commentCount == commentsBefore { return .concat([.space, argument.doc]) }
                (cursor, commentCount, leadingDoneFor) = saved
            }
        }
        let open = token(.leftParen)
        var arguments: [Argument] = []
        arguments.reserveCapacity(values.count)
        for (position, value) in values.enumerated() {
            var argument = self.argument(value)
            if position + 1 < values.count { argument.doc = .concat([argument.doc, token(.comma)]) }
            arguments.append(argument)
        }
        let hasComments = commentCount != commentsBefore
        let close = token(.rightParen)
        return spaced(parenthesized(arguments, open: open, close: close, comments: hasComments))
    }

    /// Whether a lone string or table argument goes without parentheses.
    func keepsBareArgument(isString: Bool, hadParentheses: Bool, followedBySuffix: Bool) -> Bool {
        switch options.callParentheses {
        case .always: return false
        case .input: return !hadParentheses
        case .none: return !followedBySuffix
        case .noSingleString: return isString && !followedBySuffix
        case .noSingleTable: return !isString && !followedBySuffix
        }
    }

    mutating func argument(_ value: SyntaxTree.NodeID) -> Argument {
        let node = tree[value]
        switch node.kind {
        case .table: return tableArgument(value)
        case .function:
            let doc = expression(value)
            return Argument(doc: doc, spansLines: doc.isHard, isTable: false)
        default:
            return Argument(doc: expression(value), spansLines: false, isTable: false)
        }
    }

    mutating func tableArgument(_ value: SyntaxTree.NodeID) -> Argument {
        let (doc, broken) = table(value, reportingBroken: ())
        return Argument(doc: doc, spansLines: broken, isTable: true)
    }

    /// `(a, b, c)` on one line; else hugging a lone table or the arguments that span lines
    /// (`it("does", function() ... end)`); else one argument a line. `from`: the first argument
    /// whose table is still to be told apart (see `tableSwitched`), `switches` how many more may be.
    func parenthesized(
        _ arguments: [Argument], open: Doc, close: Doc, comments: Bool, from: Int = 0, switches: Int = 3
    ) -> Doc {
        if arguments.isEmpty { return .concat([open, close]) }
        let docs = arguments.map(\.doc)
        // Built only for the layouts that use them (most calls need neither).
        var expanded: Doc {
            .group(
                .concat([open, .indent(.concat([.softLine, .join(docs, .line)])), .softLine, close]), forced: true)
        }
        if comments { return expanded }
        var flat: Doc { .concat([open, .join(docs, .space), close]) }
        if switches > 0, let switched = tableSwitched(arguments, open: open, close: close, from: from, switches) {
            return .group(.ifBreak(broken: switched, flat: flat))
        }
        // StyLua's reading: a plain argument between two that span lines, or one that spans
        // lines for what it holds (a call taking a function) beside others, expands the call.
        var seenSpanning = false, seenPlainAfter = false
        for argument in arguments {
            if argument.spansLines {
                if seenPlainAfter { return expanded }
                seenSpanning = true
            } else {
                if seenSpanning { seenPlainAfter = true }
                if argument.doc.isHard && arguments.count > 1 { return expanded }
            }
        }
        if seenSpanning || arguments.contains(where: { $0.doc.isHard }) {
            return .choice([flat, expanded], strict: true)
        }
        if arguments.count == 1 && arguments[0].isTable {
            // StyLua measures a lone table without the `)` after it.
            let hugged = Doc.concat([open, docs[0], .uncounted(close)])
            return .choice([.group(hugged), hugged, expanded])
        }
        return .group(.concat([open, .indent(.concat([.softLine, .join(docs, .line)])), .softLine, close]))
    }

    /// Beside other arguments, a table the source kept flat that breaks even on a line of its
    /// own is laid out as one the source broke: StyLua expands such a call a first time and
    /// hugs the now broken table a second time; flowpkg gives the second layout at once. The
    /// first few such tables only (each doubles the layouts to choose from).
    func tableSwitched(_ arguments: [Argument], open: Doc, close: Doc, from: Int, _ switches: Int) -> Doc? {
        guard arguments.count > 1, from < arguments.count else { return nil }
        for index in from..<arguments.count {
            guard arguments[index].isTable, let (table, forced) = Self.forcingTable(arguments[index].doc) else {
                continue
            }
            var narrow = arguments
            narrow[index].doc = forced
            narrow[index].spansLines = true
            return .whenTableBreaks(
                table: table,
                narrow: parenthesized(
                    narrow, open: open, close: close, comments: false, from: index + 1, switches: switches - 1),
                wide: parenthesized(
                    arguments, open: open, close: close, comments: false, from: index + 1, switches: switches - 1))
        }
        return nil
    }

    /// An argument's table the source kept flat (the argument is the table, or the table and
    /// its comma), and the argument with that table laid out as one the source broke.
    static func forcingTable(_ doc: Doc) -> (table: Doc, forced: Doc)? {
        switch doc {
        case .table(let flat, let broken, let width, false, let flatBreaks):
            return (doc, .table(flat: flat, broken: broken, sourceWidth: width, forced: true, flatBreaks: flatBreaks))
        case .concat(let parts, _) where !parts.isEmpty:
            guard let (table, forced) = forcingTable(parts[0]) else { return nil }
            return (table, .concat([forced] + parts.dropFirst()))
        default:
            return nil
        }
    }
}
