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

    var definitionSpace: Doc {
        options.spaceAfterFunctionNames == .definitions || options.spaceAfterFunctionNames == .always ? .space : .empty
    }

    /// The arguments of a call: `(a, b)`, or a lone string or table, with or without
    /// parentheses as `call_parentheses` says.
    /// `commentsSince`: the comment count before the call's `:` (StyLua expands the arguments
    /// of a method call whose `:` has a comment before it).
    mutating func arguments(_ call: SyntaxTree.NodeID, followedBySuffix: Bool, commentsSince: Int? = nil) -> Doc {
        let values = Array(tree.arguments(of: call))
        if kind == .string || kind == .leftBrace {
            let isString = kind == .string
            let bare = keepsBareArgument(isString: isString, hadParentheses: false, followedBySuffix: followedBySuffix)
            let index = cursor
            let argument =
                isString
                ? Argument(doc: stringToken(keepingTrailing: bare), spansLines: false, isTable: false)
                : tableArgument(values[0])
            if bare { return .concat([.space, argument.doc]) }
            // The comment after a bare string goes after the parentheses it gets.
            var trailing: [Doc] = []
            if isString { appendTrailingComments(of: index, to: &trailing) }
            let call = parenthesized([argument], open: .text("("), close: .text(")"), comments: false)
            return .concat([callSpace, call] + trailing)
        }
        let commentsBefore = commentsSince ?? commentCount
        if values.count == 1, options.callParentheses != .input, options.callParentheses != .always {
            let only = tree[values[0]]
            let isString = only.kind == .string, isTable = only.kind == .table
            let saved = (cursor, commentCount, leadingDoneFor)
            if isString || isTable,
                keepsBareArgument(isString: isString, hadParentheses: true, followedBySuffix: followedBySuffix)
            {
                _ = token(.leftParen)
                let argument = self.argument(values[0])
                _ = token(.rightParen)
                if commentCount == commentsBefore { return .concat([.space, argument.doc]) }
                (cursor, commentCount, leadingDoneFor) = saved
            }
        }
        let open = token(.leftParen)
        var arguments: [Argument] = []
        for (position, value) in values.enumerated() {
            var argument = self.argument(value)
            if position + 1 < values.count { argument.doc = .concat([argument.doc, token(.comma)]) }
            arguments.append(argument)
        }
        let hasComments = commentCount != commentsBefore
        let close = token(.rightParen)
        return .concat([callSpace, parenthesized(arguments, open: open, close: close, comments: hasComments)])
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
    /// (`it("does", function() ... end)`); else one argument a line.
    func parenthesized(_ arguments: [Argument], open: Doc, close: Doc, comments: Bool) -> Doc {
        if arguments.isEmpty { return .concat([open, close]) }
        let docs = arguments.map(\.doc)
        let expanded = Doc.group(
            .concat([open, .indent(.concat([.softLine, .join(docs, [.line])])), .softLine, close]), forced: true)
        if comments { return expanded }
        let flat = Doc.concat([open, .join(docs, [.space]), close])
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
        if arguments.count > 1, case .table(_, let broken, let width, false) = arguments[arguments.count - 1].doc {
            // A last table that would break even on a line of its own hugs the parentheses:
            // what StyLua gives when it formats its own output again.
            let prefix = arguments.dropLast().map(\.doc)
            let hug = Doc.concat([open, .join(prefix, [.space]), .space, broken, close])
            return .choice([flat, .widthSwitch(narrow: hug, wide: expanded, width: width + 1), expanded], strict: true)
        }
        if arguments.count == 1 && arguments[0].isTable {
            // StyLua measures a lone table without the `)` after it.
            let hugged = Doc.concat([open, docs[0], .uncounted(close)])
            return .choice([.group(hugged), hugged, expanded])
        }
        return .group(.concat([open, .indent(.concat([.softLine, .join(docs, [.line])])), .softLine, close]))
    }
}
