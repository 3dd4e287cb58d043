import Testing

@testable import LuaSyntax

/// A pass without post-visits of expressions (`visitsExpressionsAfterChildren` false, as the
/// linter's) gets none, and `lastVisited(under:)` names the node where each expression's walk
/// ends, as a pass with post-visits sees it.
@Suite struct SyntaxVisitorEndTests {
    static let source = """
        local t = {a = 1, [k] = f(x, y), 3, {}}
        if a and (b.c or function() return d end) then print(o:m(p, q.r), -#s, u[v]) end
        while not w.x do z = g() end
        return h(), i:j(), (k)
        """

    /// Checks, at each expression's post-visit, that the last node visited was `lastVisited(under:)`.
    struct EndChecker: SyntaxVisitor {
        let tree: SyntaxTree
        var scopes = ScopeTracker()
        var lastVisit: SyntaxTree.NodeID = -1
        var checked = 0
        var mismatches: [String] = []

        mutating func visit(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
            lastVisit = id
            return .visitChildren
        }

        mutating func visitPost(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) {
            guard node.kind.rawValue <= SyntaxKind.keyedField.rawValue else { return }  // expressions
            // A function's walk ends with its body, at its own post-visit: it is its last node.
            if node.kind == .function { lastVisit = id }
            if lastVisited(under: id) != lastVisit { mismatches.append("\(node.kind) at \(node.line):\(node.column)") }
            checked += 1
        }
    }

    /// Counts post-visits by kind.
    struct PostCounter: SyntaxVisitor {
        static var visitsExpressionsAfterChildren: Bool { false }
        let tree: SyntaxTree
        var scopes = ScopeTracker()
        var posts: [SyntaxKind] = []
        var visits = 0

        mutating func visit(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
            visits += 1
            return .visitChildren
        }

        mutating func visitPost(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) { posts.append(node.kind) }
    }

    @Test func lastVisitedIsWhereEachExpressionsWalkEnds() throws {
        var checker = EndChecker(tree: try LuaParser.parse(Array(Self.source.utf8)))
        checker.walkChunk()
        #expect(checker.mismatches == [])
        #expect(checker.checked > 40)
    }

    @Test func aPassCanGoWithoutPostVisitsOfExpressions() throws {
        let tree = try LuaParser.parse(Array(Self.source.utf8))
        var counter = PostCounter(tree: tree)
        counter.walkChunk()
        var all = EndChecker(tree: tree)
        all.walkChunk()
        // Every node is still visited; only statements, blocks, functions and locals come after.
        #expect(counter.visits > all.checked)
        #expect(!counter.posts.isEmpty)
        let expressionKinds: Set<SyntaxKind> = [.name, .index, .call, .methodCall, .binary, .unary, .paren, .table]
        #expect(counter.posts.allSatisfy { !expressionKinds.contains($0) })
        #expect(counter.posts.contains(.function))
    }
}
