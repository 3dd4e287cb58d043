import LuaSyntax

// The statements: blocks, assignments, guards, functions.
extension FactsCollector {
    mutating func block(_ id: Int32) {
        let mark = scopes.mark
        statements(of: id)
        leaveScope(to: mark)
    }

    /// A block's statements without opening a scope (the caller owns it).
    mutating func statements(of id: Int32) {
        let node = nodes[Int(id)]
        for index in Int(node.a)..<Int(node.a + node.b) { statement(lists[index]) }
    }

    mutating func statement(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .local:
            let names = Int(node.a)..<Int(node.a + node.b)
            for index in names.upperBound..<(names.upperBound + Int(node.c)) { expression(lists[index]) }
            for index in names {
                let symbol = nodes[Int(lists[index])].a
                // `local setfenv = setfenv`: keeping a global that may be missing, to test it later.
                let valueIndex = index + Int(node.b)
                if valueIndex < names.upperBound + Int(node.c), nodes[Int(lists[valueIndex])].kind == .name,
                    nodes[Int(lists[valueIndex])].a == symbol, isGlobal(symbol)
                {
                    facts.guardedGlobals.insert(text(symbol))
                    facts.guardedReadPlaces.insert(nodes[Int(lists[valueIndex])].location)
                }
                if symbol == environmentSymbol { facts.replacesEnvironment = true }
                declare(symbol)
            }
        case .assignment:
            let targets = Int(node.a)..<Int(node.a + node.b)
            for index in targets.upperBound..<(targets.upperBound + Int(node.c)) { expression(lists[index]) }
            for index in targets { assign(to: lists[index]) }
        case .callStatement:
            expression(node.a)
        case .doBlock:
            block(node.a)
        case .whileLoop:
            expression(node.a)
            noteGuard(node.a, allowsNot: true)
            versionGuarded(isVersionTest(node.a)) { walker in walker.conditional { $0.block(node.b) } }
        case .repeatLoop:
            // The condition sees the body's locals.
            let mark = scopes.mark
            statements(of: node.a)
            expression(node.b)
            leaveScope(to: mark)
        case .ifStatement:
            ifStatement(node)
        case .numericFor:
            for index in Int(node.a + 1)..<Int(node.a + node.b) { expression(lists[index]) }
            let mark = scopes.mark
            declare(nodes[Int(lists[Int(node.a)])].a)
            conditional { $0.block(node.c) }
            leaveScope(to: mark)
        case .genericFor:
            let names = Int(node.a)..<Int(node.a + node.b)
            let expressions = names.upperBound..<(names.upperBound + Int(node.c))
            for index in expressions { expression(lists[index]) }
            let mark = scopes.mark
            for index in names { declare(nodes[Int(lists[index])].a) }
            conditional { $0.block($0.lists[expressions.upperBound]) }
            leaveScope(to: mark)
        case .functionStatement:
            // `function x()` assigns x; `function x.y()` reads x and assigns a field.
            assign(to: node.a)
            function(node.b)
        case .localFunction:
            declare(nodes[Int(node.a)].a)  // in scope inside its own body: it may recurse
            function(node.b)
        case .returnStatement:
            for index in Int(node.a)..<Int(node.a + node.b) { expression(lists[index]) }
        default:
            break
        }
    }

    /// `if`: only the first condition surely runs; a branch after a version test (its own
    /// condition or an earlier one's) is guarded.
    mutating func ifStatement(_ node: SyntaxNode) {
        expression(lists[Int(node.a)])
        noteGuard(lists[Int(node.a)], allowsNot: true)
        conditional { walker in
            var tested = false
            for pair in 0..<Int(node.b) {
                let condition = walker.lists[Int(node.a) + pair * 2]
                if pair > 0 {
                    walker.expression(condition)
                    walker.noteGuard(condition, allowsNot: true)
                }
                tested = tested || walker.isVersionTest(condition)
                walker.versionGuarded(tested) { $0.block($0.lists[Int(node.a) + pair * 2 + 1]) }
            }
            if node.c >= 0 { walker.versionGuarded(tested) { $0.block(node.c) } }
        }
    }

    /// Walks `body` as code a version test guards, when `guarded`.
    @inline(__always) mutating func versionGuarded(_ guarded: Bool, _ body: (inout FactsCollector) -> Void) {
        if guarded { versionGuardDepth += 1 }
        body(&self)
        if guarded { versionGuardDepth -= 1 }
    }

    /// Whether a condition asks which Lua it runs on: it mentions `_VERSION`, `jit`, a Lua 5.1
    /// global (`if setfenv then`, `type(unpack)`), or a library field only some versions have
    /// (`table.unpack`, `math.pow`, `package.loaders`). Bounded: a test is a short expression.
    func isVersionTest(_ id: Int32, depth: Int = 0) -> Bool {
        guard depth < 8 else { return false }
        let node = nodes[Int(id)]
        switch node.kind {
        case .name:
            let name = text(node.a)
            return name == "_VERSION" || name == "jit" || legacySymbols.contains(node.a)
        case .index:
            let key = nodes[Int(node.b)]
            if key.kind == .string, Self.isVersionField(text(key.a)) { return true }
            return isVersionTest(node.a, depth: depth + 1)
        case .methodCall:  // `_VERSION:find "5.1"`
            if isVersionTest(node.a, depth: depth + 1) { return true }
            return (Int(node.b + 1)..<Int(node.b + 1 + node.c)).contains { isVersionTest(lists[$0], depth: depth + 1) }
        case .binary:
            return isVersionTest(node.a, depth: depth + 1) || isVersionTest(node.b, depth: depth + 1)
        case .unary, .paren:
            return isVersionTest(node.a, depth: depth + 1)
        case .call:
            if isVersionTest(node.a, depth: depth + 1) { return true }
            return (Int(node.b)..<Int(node.b + node.c)).contains { isVersionTest(lists[$0], depth: depth + 1) }
        default:
            return false
        }
    }

    /// Fields whose presence tells Lua versions apart (`table.unpack`, `math.pow`), or that
    /// name one (`compat.lua51`, `compat.jit`, `M.is_luajit`, `config.version`).
    static func isVersionField(_ name: String) -> Bool {
        if versionFields.contains(name) { return true }
        let lowered = name.lowercased()
        return lowered.contains("jit") || lowered.contains("lua5") || lowered.contains("version")
    }

    static let versionFields: Set<String> = Set(StandardLibraryFields.otherVersions.values.joined()).union([
        "unpack", "pack", "move", "searchers", "loaders", "tointeger", "isyieldable", "utf8", "bit32",
    ])

    /// Walks `body` as code that may not run.
    @inline(__always) mutating func conditional(_ body: (inout FactsCollector) -> Void) {
        conditionalDepth += 1
        body(&self)
        conditionalDepth -= 1
    }

    mutating func assign(to target: Int32) {
        let node = nodes[Int(target)]
        if node.kind == .name {
            if node.a == environmentSymbol { facts.replacesEnvironment = true }
            if isGlobal(node.a) { recordGlobalWrite(text(node.a), at: node.location) }
        } else {
            // `_G.name = v`, `_G["name"] = v`, `function _G.name()`, and the same through `_ENV`.
            if node.kind == .index, isGlobalTable(node.a), let name = literalOrFieldName(node.b) {
                recordGlobalWrite(name, at: nodes[Int(node.b)].location)
                facts.explicitGlobalWrites.insert(name)
            }
            // `package.path = dir .. "?.lua;" .. package.path`: require may then find any name
            // there (in the project's own files), as after a searcher of the program's own.
            if packageField(target) == "path" { facts.addsSearcher = true }
            // `package.preload["x"] = f`, `package.loaded.x = v`: modules made at run time.
            if node.kind == .index, let field = packageField(node.a) {
                if field == "preload" || field == "loaded" {
                    if let name = literalOrFieldName(node.b) {
                        facts.registeredModules.insert(name)
                    } else {
                        facts.addsSearcher = true
                    }
                } else if field == "searchers" {
                    facts.addsSearcher = true
                }
            }
            // `x.y = v` and `x.y.z = v` mutate the global x (luacheck's 112), they do not read it (113).
            var base = node.a
            while node.kind == .index, nodes[Int(base)].kind == .index {
                expression(nodes[Int(base)].b)
                base = nodes[Int(base)].a
            }
            if node.kind != .index || nodes[Int(base)].kind != .name { expression(base) }
            expression(node.b)
        }
    }

    /// Notes a global this module assigns, and where it is first assigned.
    @inline(__always) mutating func recordGlobalWrite(_ name: String, at location: SourceLocation) {
        if facts.globalWrites.insert(name).inserted { facts.globalWriteLocations[name] = location }
    }

    /// Whether `id` is the globals table itself: the global `_G`, or `_ENV` while it is the chunk's.
    @inline(__always) func isGlobalTable(_ id: Int32) -> Bool {
        let node = nodes[Int(id)]
        guard node.kind == .name else { return false }
        if node.a == globalTableSymbol { return isGlobal(node.a) }
        return node.a == environmentSymbol && environmentSymbol >= 0 && !scopes.isBound(environmentSymbol)
    }

    /// `F` when `id` is `package.F` (or `package["F"]`) of the global `package`.
    func packageField(_ id: Int32) -> String? {
        let node = nodes[Int(id)]
        guard node.kind == .index, isGlobalName(node.a, packageSymbol) else { return nil }
        return literalOrFieldName(node.b)
    }

    /// The string a key expression stands for: a literal, or the name of `t.name`.
    @inline(__always) func literalOrFieldName(_ id: Int32) -> String? {
        let node = nodes[Int(id)]
        return node.kind == .string ? text(node.a) : nil
    }

    /// Notes the globals an expression tests for being there (`x`, `x == nil`, `type(x)`, an
    /// operand of `and`/`or`, and in a condition `not x`): code that asks first whether a global
    /// exists (`local unpack = table.unpack or unpack`, `if setfenv then ... end`) is portable
    /// code, not a typo. Bounded: a guard is a short expression.
    mutating func noteGuard(_ id: Int32, allowsNot: Bool = false, depth: Int = 0) {
        guard depth < 8 else { return }
        let node = nodes[Int(id)]
        switch node.kind {
        case .name:
            if isGlobal(node.a) {
                facts.guardedGlobals.insert(text(node.a))
                facts.guardedReadPlaces.insert(node.location)
            }
        case .paren:
            noteGuard(node.a, allowsNot: allowsNot, depth: depth + 1)
        case .unary where node.op == UnaryOperator.not.rawValue && allowsNot:
            // Only as a condition: `local skip = not file and x` reads a never-defined `file`.
            noteGuard(node.a, allowsNot: allowsNot, depth: depth + 1)
        case .binary:
            if node.op == BinaryOperator.and.rawValue || node.op == BinaryOperator.or.rawValue {
                noteGuard(node.a, allowsNot: allowsNot, depth: depth + 1)
                noteGuard(node.b, allowsNot: allowsNot, depth: depth + 1)
            } else if node.op == BinaryOperator.equal.rawValue || node.op == BinaryOperator.notEqual.rawValue {
                if nodes[Int(node.b)].kind == .nilLiteral { noteGuard(node.a, depth: depth + 1) }
                if nodes[Int(node.a)].kind == .nilLiteral { noteGuard(node.b, depth: depth + 1) }
                // `type(x) == "function"`
                if nodes[Int(node.a)].kind == .call { noteGuard(node.a, depth: depth + 1) }
            }
        case .call:
            if node.c == 1, isGlobalName(node.a, typeSymbol) { noteGuard(lists[Int(node.b)], depth: depth + 1) }
        default:
            break
        }
    }

    mutating func function(_ id: Int32) {
        let node = nodes[Int(id)]
        functionDepth += 1
        let mark = scopes.mark
        if node.op & 2 != 0 && selfSymbol >= 0 { declare(selfSymbol) }
        for index in Int(node.a)..<Int(node.a + node.b) { declare(nodes[Int(lists[index])].a) }
        statements(of: node.c)
        leaveScope(to: mark)
        functionDepth -= 1
    }
}
