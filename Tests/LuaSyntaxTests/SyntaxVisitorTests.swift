import Testing

@testable import LuaSyntax

/// The one walk and the one scope tracker: each name resolves to the declaration Lua's rules
/// give it, scopes end innermost first, and children come in source order.
@Suite struct SyntaxVisitorTests {
    /// Records, for each name read, the line of the local it refers to (0 for a global), and the
    /// lines of the declarations whose scopes end, in order.
    struct Resolver: SyntaxVisitor {
        let tree: SyntaxTree
        var scopes = ScopeTracker()
        var resolved: [String] = []
        var ended: [Int32] = []
        var order: [SyntaxKind] = []

        mutating func visit(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
            order.append(node.kind)
            if node.kind == .name {
                let binding = scopes.binding(of: node.a)
                resolved.append("\(tree.text(of: id))@\(node.line):\(binding < 0 ? 0 : binding)")
            }
            return .visitChildren
        }

        /// A declaration's id is its line.
        func declaration(of localName: SyntaxTree.NodeID, _ node: SyntaxNode) -> Int32 { node.line }
        func implicitSelf(of function: SyntaxTree.NodeID) -> Int32? { 100 + tree[function].line }
        mutating func scopeEnds(for declaration: Int32) { ended.append(declaration) }
    }

    func resolve(_ source: String) throws -> Resolver {
        var resolver = Resolver(tree: try LuaParser.parse(Array(source.utf8)))
        resolver.walkChunk()
        return resolver
    }

    @Test func localsShadowAndEndWithTheirBlock() throws {
        let resolver = try resolve(
            """
            local x = 1
            do
              local x = x
              print(x)
            end
            print(x, y)
            """)
        #expect(resolver.resolved == ["x@3:1", "print@4:0", "x@4:3", "print@6:0", "x@6:1", "y@6:0"])
        #expect(resolver.ended == [3, 1])
        #expect(resolver.scopes.count == 0)
    }

    @Test func aLocalFunctionSeesItselfALocalValueDoesNot() throws {
        let resolver = try resolve(
            """
            local function f() return f end
            local g = function() return g end
            """)
        #expect(resolver.resolved == ["f@1:1", "g@2:0"])
    }

    @Test func repeatConditionSeesTheBodysLocalsAndLoopsDeclareTheirVariables() throws {
        let resolver = try resolve(
            """
            repeat local done = true until done
            for i = 1, i do print(i) end
            for k, v in pairs(k) do print(k, v) end
            """)
        #expect(
            resolver.resolved == [
                "done@1:1", "i@2:0", "print@2:0", "i@2:2", "pairs@3:0", "k@3:0", "print@3:0", "k@3:3", "v@3:3",
            ])
        #expect(resolver.ended == [1, 2, 3, 3])
    }

    @Test func aMethodDeclaresSelfBeforeItsParameters() throws {
        let resolver = try resolve(
            """
            local M = {}
            function M:show(a)
              return self, a
            end
            """)
        #expect(resolver.resolved == ["M@2:1", "self@3:102", "a@3:2"])
        #expect(resolver.ended == [2, 102, 1])
    }

    @Test func expressionChildrenComeInSourceOrder() throws {
        let resolver = try resolve("f(a, b).c[d] = e + g")
        #expect(resolver.resolved.map { String($0.prefix { $0 != "@" }) } == ["e", "g", "f", "a", "b", "d"])
        #expect(resolver.order.first == .block)
        #expect(resolver.order.dropFirst().first == .assignment)
    }

    @Test func deepLeftChainsNeedNoRecursion() throws {
        let depth = 200_000
        let source = "local t = {} return t" + String(repeating: ".a", count: depth)
        let resolver = try resolve(source)
        #expect(resolver.resolved == ["t@1:1"])
        #expect(resolver.order.filter { $0 == .index }.count == depth)
    }

    @Test func aPassCanSkipAndWalkPartsItself() throws {
        /// Sees only what `local` statements' values hold, by walking them itself.
        struct ValuesOnly: SyntaxVisitor {
            let tree: SyntaxTree
            var scopes = ScopeTracker()
            var names: [String] = []

            mutating func visit(_ id: SyntaxTree.NodeID, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
                switch node.kind {
                case .assignment: return .skipChildren
                case .name: names.append(tree.text(of: id))
                default: break
                }
                return .visitChildren
            }
        }
        var pass = ValuesOnly(tree: try LuaParser.parse(Array("local a = b\nc = d\nlocal e = f".utf8)))
        pass.walkChunk()
        #expect(pass.names == ["b", "f"])
    }
}

/// The tracker alone, as the facts collector, the lint walker and the compiler-check screen use it.
@Suite struct ScopeTrackerTests {
    @Test func innerDeclarationsHideOuterOnesUntilTheirScopeEnds() {
        var scopes = ScopeTracker()
        scopes.reset(symbolCount: 4)
        #expect(scopes.binding(of: 2) == -1)
        #expect(scopes.declare(2, as: 10) == -1)
        let mark = scopes.mark
        #expect(scopes.declare(2, as: 11) == 10)
        scopes.declare(3, as: 12)
        #expect(scopes.binding(of: 2) == 11)
        #expect(scopes.isBound(3))
        #expect(scopes.innermost(above: mark) == 12)
        scopes.leave(to: mark)
        #expect(scopes.binding(of: 2) == 10)
        #expect(!scopes.isBound(3))
        #expect(scopes.innermost(above: mark) == nil)
    }

    @Test func anUnnamedDeclarationTakesAPlaceAndHidesNothing() {
        var scopes = ScopeTracker()
        scopes.reset(symbolCount: 2)
        scopes.declare(1, as: 5)
        #expect(scopes.declare(-1, as: 6) == -1)
        #expect(scopes.count == 2)
        #expect(scopes.binding(of: 1) == 5)
        scopes.unbindInnermost()
        #expect(scopes.binding(of: 1) == 5)
        scopes.reset(symbolCount: 3)
        #expect(scopes.count == 0 && scopes.binding(of: 1) == -1)
    }
}
