import LuaSyntax

/// StyLua's `sort_requires`: in the chunk's top-level block, each run of
/// `local name = require(...)` statements on consecutive lines is sorted by `name`. Done on the
/// source text before the layout, so the layout's meaning check compares against the sorted
/// source (the order of `require` calls is what the option asks to change).
enum RequireSorting {
    /// `source` with its runs of requires sorted (the same bytes when nothing moves).
    static func sorted(_ source: [UInt8], tree: SyntaxTree, stream: LuaTokenStream) -> [UInt8] {
        let lines = lineStarts(source)
        let statements = Array(tree.statements(of: tree.root))
        let firsts = statements.map { id in
            let node = tree[id]
            return tokenIndex(at: lines[Int(node.line) - 1] + Int(node.column) - 1, in: stream)
        }
        var runs: [[Statement]] = []
        var previousEnd: Int?
        for (position, id) in statements.enumerated() {
            let first = firsts[position]
            let last = (position + 1 < firsts.count ? firsts[position + 1] : stream.tokens.count - 1) - 1
            guard let name = requireName(id, first: first, tree: tree, stream: stream) else {
                previousEnd = nil
                continue
            }
            let statement = Statement(name: name, start: Int(stream.tokens[first].offset), end: stream.end(last))
            if let end = previousEnd, line(of: end, in: lines) + 1 >= Int(tree[id].line) {
                runs[runs.count - 1].append(statement)
            } else {
                runs.append([statement])
            }
            previousEnd = statement.end
        }
        var output = source
        for run in runs.reversed() where run.count > 1 {
            output = sortedRun(run, in: output)
        }
        return output
    }

    struct Statement {
        var name: String
        /// The offsets of its first token and of the end of its last (a `;` included).
        var start: Int
        var end: Int
    }

    /// The token that starts at `offset`.
    static func tokenIndex(at offset: Int, in stream: LuaTokenStream) -> Int {
        var low = 0, high = stream.tokens.count - 1
        while low < high {
            let middle = (low + high) / 2
            if Int(stream.tokens[middle].offset) < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The name a statement `local name = require(...)...` binds, the last call's base being `require`.
    static func requireName(_ id: SyntaxTree.NodeID, first: Int, tree: SyntaxTree, stream: LuaTokenStream)
        -> String?
    {
        let node = tree[id]
        guard node.kind == .local, node.b == 1, node.c == 1 else { return nil }
        guard let value = tree.list(node.a + node.b, node.c).first else { return nil }
        guard tree[value].kind == .call || tree[value].kind == .methodCall else { return nil }
        var current = value
        while [.call, .methodCall, .index].contains(tree[current].kind) { current = tree[current].a }
        guard tree[current].kind == .name, tree.text(of: current) == "require" else { return nil }
        return stream.text(first + 1)
    }

    /// The run's statements sorted by name (stably); the first one's leading comments stay
    /// first. A run under a `-- stylua:` marker stays as it is.
    static func sortedRun(_ run: [Statement], in source: [UInt8]) -> [UInt8] {
        var pieces: [(name: String, leading: [UInt8], text: [UInt8])] = []
        var previousEnd = run[0].start
        for statement in run {
            let end = lineEnd(statement.end, in: source)
            pieces.append(
                (statement.name, Array(source[previousEnd..<statement.start]), Array(source[statement.start..<end])))
            previousEnd = end
        }
        if pieces.contains(where: { String(decoding: $0.leading, as: UTF8.self).contains("stylua:") }) { return source }
        let order = pieces.indices.sorted { left, right in
            let a = pieces[left].name, b = pieces[right].name
            return a != b ? a.utf8.lexicographicallyPrecedes(b.utf8) : left < right
        }
        var middle: [UInt8] = []
        for (position, index) in order.enumerated() {
            var leading = pieces[index].leading
            if position == 0 {
                // The run's first place keeps what stood before the run; a statement moved there
                // keeps its own comments, after it (StyLua would drop them).
                while let byte = leading.first, byte == 10 || byte == 13 || byte == 32 || byte == 9 {
                    leading.removeFirst()
                }
            } else if leading.isEmpty {
                leading = [10]
            }
            middle += leading
            middle += pieces[index].text
        }
        return Array(source[..<run[0].start]) + middle + Array(source[previousEnd...])
    }

    /// `offset` moved past spaces and a line comment on its line.
    static func lineEnd(_ offset: Int, in source: [UInt8]) -> Int {
        var position = offset
        while position < source.count, source[position] == 32 || source[position] == 9 { position += 1 }
        guard position + 1 < source.count, source[position] == 45, source[position + 1] == 45,
            !(position + 2 < source.count && source[position + 2] == 91)
        else { return offset }
        while position < source.count, source[position] != 10, source[position] != 13 { position += 1 }
        return position
    }

    static func lineStarts(_ source: [UInt8]) -> [Int] {
        var starts = [0]
        for (offset, byte) in source.enumerated() where byte == 10 { starts.append(offset + 1) }
        return starts
    }

    /// The 1-based line of `offset`.
    static func line(of offset: Int, in starts: [Int]) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }
}
