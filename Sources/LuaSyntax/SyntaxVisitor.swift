/// What a pass wants after `SyntaxVisitor.visit`: the walker goes on into the node's children,
/// or the pass has walked them itself (or wants them left alone).
public enum SyntaxVisitorContinueKind: Sendable {
    case visitChildren, skipChildren
}

/// A pass over a syntax tree, in the shape of swift-format's `SyntaxVisitor`: the walk, in Lua's
/// order of evaluation and scoping, is written once here, with the one `ScopeTracker`; a pass
/// conforms, keeps what it learns, and overrides only the hooks it needs.
///
/// The walk: a `block` is a scope (a function's body, a loop's body and a `repeat`'s body share
/// the scope of their parameters, loop variables or `until` condition); `local` walks its values
/// before it declares its names, `local function` declares its name before its body;
/// an assignment walks its values before its targets. Statements nest as deep as the parser
/// allows; expressions are walked with an explicit stack, since left-nested chains
/// (`a.b.c`, `a + b + c`) have no bound.
///
/// A pass that handles a node itself (a `local` whose table constructor it reads as fields)
/// returns `.skipChildren` from `visit` and walks the parts with `walk(_:)`, `declareLocal(_:)`
/// and `walkScope(_:)`.
public protocol SyntaxVisitor {
    /// Where the chunk's nodes live: a `SyntaxTree`, or the parser's buffers (`SyntaxBuffers`).
    associatedtype Syntax: SyntaxStorage = SyntaxTree
    /// The tree being walked.
    var tree: Syntax { get }
    /// Which declaration each name refers to at the node being visited.
    var scopes: ScopeTracker { get set }

    /// Before a node's children.
    mutating func visit(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) -> SyntaxVisitorContinueKind
    /// After a node's children, when `visit` let the walker walk them.
    mutating func visitPost(_ id: SyntaxTree.NodeID, _ node: SyntaxNode)
    /// The id a declared local (a `localName` node) gets in `scopes`; called before it is in scope.
    mutating func declaration(of localName: SyntaxTree.NodeID, _ node: SyntaxNode) -> Int32
    /// The id of a method's implicit `self` (a `function` whose `op` has bit 1), nil to declare none.
    mutating func implicitSelf(of function: SyntaxTree.NodeID) -> Int32?
    /// A declaration's scope ends (innermost first), just before its name stops referring to it.
    mutating func scopeEnds(for declaration: Int32)
    /// A scope begins (a block, a function's, a loop's), before anything is declared in it.
    mutating func scopeOpens()
    /// A scope has ended, after `scopeEnds(for:)` for each of its declarations.
    mutating func scopeCloses()
    /// A stack for walking expressions: a pass that keeps one across walks (and takes it back in
    /// `returnExpressionStack`) saves an allocation per expression.
    mutating func borrowExpressionStack() -> [SyntaxTree.NodeID]
    /// Takes back the stack `borrowExpressionStack` lent, empty.
    mutating func returnExpressionStack(_ stack: [SyntaxTree.NodeID])
    /// Whether `visitPost` comes for expressions too (true unless the pass says). Statements,
    /// blocks, functions and declared locals always get it; a pass that needs no post-visit of an
    /// expression says false, and the walk then keeps no mark on its stack for each one (the
    /// linter: a tenth of its walk's time). `lastVisited(under:)` tells such a pass where an
    /// expression's walk ends.
    static var visitsExpressionsAfterChildren: Bool { get }
}

extension SyntaxVisitor {
    @inlinable
    public mutating func visit(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
        .visitChildren
    }
    @inlinable public mutating func visitPost(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) {}
    @inlinable
    public mutating func declaration(of localName: SyntaxTree.NodeID, _ node: SyntaxNode) -> Int32 { 0 }
    @inlinable public mutating func implicitSelf(of function: SyntaxTree.NodeID) -> Int32? { nil }
    @inlinable public mutating func scopeEnds(for declaration: Int32) {}
    @inlinable public mutating func scopeOpens() {}
    @inlinable public mutating func scopeCloses() {}
    @inlinable public mutating func borrowExpressionStack() -> [SyntaxTree.NodeID] { [] }
    @inlinable public mutating func returnExpressionStack(_ stack: [SyntaxTree.NodeID]) {}
    @inlinable public static var visitsExpressionsAfterChildren: Bool { true }

    /// Walks the whole chunk: its top-level block, in a scope of its own.
    @inlinable
    public mutating func walkChunk() {
        scopes.reset(symbolCount: tree.symbolCount)
        walk(tree.root)
    }

    /// Walks a node and everything under it.
    @inlinable
    public mutating func walk(_ id: SyntaxTree.NodeID) {
        let node = tree[id]
        switch node.kind {
        case .nilLiteral, .trueLiteral, .falseLiteral, .vararg, .number, .string, .name, .index, .call,
            .methodCall, .binary, .unary, .paren, .table, .positionalField, .keyedField:
            walkExpression(id)
        default:
            guard visit(id, node) == .visitChildren else { return }
            walkChildren(id, node)
            visitPost(id, node)
        }
    }

    /// Declares a `localName` node in the current scope (visiting it first).
    @inlinable
    public mutating func declareLocal(_ localName: SyntaxTree.NodeID) {
        let node = tree[localName]
        _ = visit(localName, node)
        let declaration = declaration(of: localName, node)
        scopes.declare(node.a, as: declaration)
        visitPost(localName, node)
    }

    /// Runs `body` in a scope of its own, ending the scope's declarations after it.
    @inlinable
    public mutating func walkScope(_ body: (inout Self) -> Void) {
        let mark = scopes.mark
        scopeOpens()
        body(&self)
        while let declaration = scopes.innermost(above: mark) {
            scopeEnds(for: declaration)
            scopes.unbindInnermost()
        }
        scopeCloses()
    }

    /// Walks a block's statements in the current scope (a function's, a loop's).
    @inlinable
    public mutating func walkStatements(of block: SyntaxTree.NodeID) {
        let node = tree[block]
        guard visit(block, node) == .visitChildren else { return }
        for statement in tree.statements(of: block) { walk(statement) }
        visitPost(block, node)
    }

    @inlinable
    mutating func walkChildren(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) {
        switch node.kind {
        case .block:
            walkScope { walker in
                for statement in walker.tree.statements(of: id) { walker.walk(statement) }
            }
        case .local:
            for value in tree.list(node.a + node.b, node.c) { walk(value) }
            for name in tree.list(node.a, node.b) { declareLocal(name) }
        case .assignment:
            for value in tree.list(node.a + node.b, node.c) { walk(value) }
            for target in tree.list(node.a, node.b) { walk(target) }
        case .callStatement, .doBlock:
            walk(node.a)
        case .whileLoop:
            walk(node.a)
            walk(node.b)
        case .repeatLoop:
            walkScope { walker in
                walker.walkStatements(of: node.a)
                walker.walk(node.b)
            }
        case .ifStatement:
            for part in tree.list(node.a, node.b * 2) { walk(part) }
            if node.c >= 0 { walk(node.c) }
        case .numericFor:
            let parts = tree.list(node.a, node.b)
            for expression in parts.dropFirst() { walk(expression) }
            walkScope { walker in
                walker.declareLocal(parts[parts.startIndex])
                walker.walkStatements(of: node.c)
            }
        case .genericFor:
            for expression in tree.list(node.a + node.b, node.c) { walk(expression) }
            walkScope { walker in
                for name in walker.tree.list(node.a, node.b) { walker.declareLocal(name) }
                walker.walkStatements(of: walker.tree.listElement(node.a + node.b + node.c))
            }
        case .functionStatement:
            walk(node.a)
            walk(node.b)
        case .localFunction:
            declareLocal(node.a)
            walk(node.b)
        case .returnStatement:
            for value in tree.list(node.a, node.b) { walk(value) }
        case .function:
            walkFunctionScope(id, node)
        default:
            break  // break, goto, label, localName
        }
    }

    /// A function's parameters (its implicit `self` first) and body, in one scope.
    @inlinable
    mutating func walkFunctionScope(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) {
        walkScope { walker in
            if node.op & 2 != 0, let selfSymbol = walker.tree.selfSymbol,
                let declaration = walker.implicitSelf(of: id)
            {
                walker.scopes.declare(selfSymbol, as: declaration)
            }
            for parameter in walker.tree.list(node.a, node.b) { walker.declareLocal(parameter) }
            walker.walkStatements(of: node.c)
        }
    }

    /// An expression, with an explicit stack: children in source order, `visitPost` after them.
    @inlinable
    mutating func walkExpression(_ root: SyntaxTree.NodeID) {
        // Each entry: a node id, negated minus one once its children are on the stack.
        var stack = borrowExpressionStack()
        stack.append(root)
        while let entry = stack.popLast() {
            if entry < 0 {
                let id = -1 - entry
                visitPost(id, tree[id])
                continue
            }
            let node = tree[entry]
            if node.kind == .function {
                walk(entry)
                continue
            }
            guard visit(entry, node) == .visitChildren else { continue }
            if Self.visitsExpressionsAfterChildren { stack.append(-1 - entry) }
            let start = stack.count
            switch node.kind {
            case .index, .binary, .keyedField:
                stack.append(node.a)
                stack.append(node.b)
            case .call:
                stack.append(node.a)
                stack.append(contentsOf: tree.list(node.b, node.c))
            case .methodCall:
                stack.append(node.a)
                stack.append(contentsOf: tree.list(node.b, node.c + 1))
            case .unary, .paren, .positionalField:
                stack.append(node.a)
            case .table:
                stack.append(contentsOf: tree.list(node.a, node.b))
            default:
                break  // literals and names
            }
            stack[start...].reverse()
        }
        returnExpressionStack(stack)
    }

    /// The last node the walk visits under an expression: the expression itself when it has no
    /// children, or a function (whose body the walk visits after it, before its `visitPost`).
    /// Follows `walkExpression`'s order: a pass without post-visits of expressions
    /// (`visitsExpressionsAfterChildren` false) knows from it when an expression's walk is over.
    @inlinable
    public func lastVisited(under expression: SyntaxTree.NodeID) -> SyntaxTree.NodeID {
        var id = expression
        while true {
            let node = tree[id]
            switch node.kind {
            case .index, .binary, .keyedField:
                id = node.b
            case .call:
                id = node.c > 0 ? tree.listElement(node.b + node.c - 1) : node.a
            case .methodCall:
                id = tree.listElement(node.b + node.c)
            case .unary, .paren, .positionalField:
                id = node.a
            case .table where node.b > 0:
                id = tree.listElement(node.a + node.b - 1)
            default:
                return id  // literals, names, empty tables, functions
            }
        }
    }
}

/// A pass that keeps the walk's expression stack from one expression to the next (one
/// allocation per pass, not per expression): it holds the stack, and the walk borrows it.
public protocol KeepsExpressionStack: SyntaxVisitor {
    /// The stack, empty between expressions; the walk borrows it while walking one.
    var expressionStack: [SyntaxTree.NodeID] { get set }
}

extension KeepsExpressionStack {
    @inlinable
    public mutating func borrowExpressionStack() -> [SyntaxTree.NodeID] {
        var stack: [SyntaxTree.NodeID] = []
        swap(&stack, &expressionStack)
        return stack
    }

    @inlinable
    public mutating func returnExpressionStack(_ stack: [SyntaxTree.NodeID]) {
        expressionStack = stack
    }
}
