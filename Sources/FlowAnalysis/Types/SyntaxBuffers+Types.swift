import LuaSyntax

/// What `ModuleTypeCollector` reads of a chunk in the parser's buffers beyond `SyntaxStorage`,
/// as `SyntaxTree` offers it: a name's text and a call's arguments. The collector reads the
/// buffers in place, with no `SyntaxTree` copied from them (nodes, lists, source and every
/// symbol's text) for each module validation checks.
extension SyntaxBuffers {
    /// The text of a `name`, `string`, `localName`, `gotoStatement` or `label` node.
    func text(of id: Int32) -> String { symbols.text(of: nodes[Int(id)].a) }

    /// The arguments of a `call` or `methodCall` node.
    @inline(__always) func arguments(of call: Int32) -> Slice<UnsafeBufferPointer<Int32>> {
        let node = nodes[Int(call)]
        return node.kind == .methodCall ? list(node.b + 1, node.c) : list(node.b, node.c)
    }
}
