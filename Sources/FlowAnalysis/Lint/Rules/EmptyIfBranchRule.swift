import FlowDiagnostics
import LuaSyntax

/// An empty if, elseif or else branch.
struct EmptyIfBranchRule: LintClass {
    static let entry = LintCatalogueEntry(
        code: "FP457", luacheck: 542, title: "empty if branch",
        explanation: "An if, elseif or else branch holds nothing.")

    static func message(for finding: LintFinding, options: LintOptions) -> (String, String)? {
        ("empty if branch", "")
    }

    static func visits(_ kind: SyntaxKind) -> Bool { kind == .ifStatement }

    static func visit(_ id: Int32, _ node: SyntaxNode, in linter: inout ModuleLinter) {
        for pair in 0..<Int(node.b) {
            checkBranch(linter.lists[Int(node.a) + pair * 2 + 1], keyword: "then", in: &linter)
        }
        if node.c >= 0 { checkBranch(node.c, keyword: "else", in: &linter) }
    }

    /// At the `then` or `else` before an empty branch.
    private static func checkBranch(_ block: Int32, keyword: String, in linter: inout ModuleLinter) {
        let node = linter.nodes[Int(block)]
        guard node.b == 0 else { return }
        // The block starts at the token after its keyword: step back over blanks and comment
        // lines (a branch holding only a comment is empty too) to the keyword.
        var offset = linter.offset(line: node.line, column: node.column) - 1
        while true {
            while offset > 0, [0x20, 0x09, 0x0A, 0x0D].contains(linter.byte(at: offset)) { offset -= 1 }
            let (line, _) = linter.place(of: offset)
            let start = linter.lineStarts[Int(line) - 1]
            var first = start
            while first < offset, linter.byte(at: first) == 0x20 || linter.byte(at: first) == 0x09 { first += 1 }
            guard linter.byte(at: first) == UInt8(ascii: "-"), linter.byte(at: first + 1) == UInt8(ascii: "-"),
                start > 0
            else {
                break
            }
            offset = start - 1
        }
        let word = Array(keyword.utf8)
        func endsWithKeyword(_ end: Int) -> Int? {
            let start = end - word.count + 1
            guard start >= 0, (0..<word.count).allSatisfy({ linter.byte(at: start + $0) == word[$0] }) else {
                return nil
            }
            return start
        }
        // `elseif x then -- a comment`: the keyword is before the comment that ends its line.
        var start = endsWithKeyword(offset)
        if start == nil {
            let lineStart = linter.lineStarts[Int(linter.place(of: offset).line) - 1]
            var dash = lineStart
            while start == nil, dash < offset {
                if linter.byte(at: dash) == UInt8(ascii: "-"), linter.byte(at: dash + 1) == UInt8(ascii: "-") {
                    var end = dash - 1
                    while end > lineStart, linter.byte(at: end) == 0x20 || linter.byte(at: end) == 0x09 { end -= 1 }
                    start = endsWithKeyword(end)
                }
                dash += 1
            }
        }
        guard let start else { return }
        let place = linter.place(of: start)
        linter.facts.findings.append(finding(line: place.line, column: place.column))
    }
}
