import LuaSyntax

// The statements: declarations, assignments, guards, loops (the walk's other statements, its
// blocks' scopes and its functions' are LuaSyntax's `SyntaxVisitor`).
extension FactsCollector {
    /// The statements the collector walks itself: what they declare, assign or guard, and which
    /// of their parts may not run.
    mutating func visitStatement(_ id: Int32, _ node: SyntaxNode) -> SyntaxVisitorContinueKind {
        switch node.kind {
        case .local:
            local(node)
        case .assignment:
            for value in tree.list(node.a + node.b, node.c) { walk(value) }
            for target in tree.list(node.a, node.b) { assign(to: target) }
        case .whileLoop:
            walk(node.a)
            noteGuard(node.a, allowsNot: true)
            versionGuarded(isVersionTest(node.a)) { walker in walker.conditional { $0.walk(node.b) } }
        case .ifStatement:
            ifStatement(node)
        case .numericFor:
            for index in Int(node.a + 1)..<Int(node.a + node.b) { walk(lists[index]) }
            walkScope { walker in
                walker.declareLocal(walker.lists[Int(node.a)])
                walker.conditional { $0.walk(node.c) }
            }
        case .genericFor:
            let names = Int(node.a)..<Int(node.a + node.b)
            let expressions = names.upperBound..<(names.upperBound + Int(node.c))
            for index in expressions { walk(lists[index]) }
            walkScope { walker in
                for index in names { walker.declareLocal(walker.lists[index]) }
                walker.conditional { $0.walk($0.lists[expressions.upperBound]) }
            }
        case .functionStatement:
            // `function x()` assigns x; `function x.y()` reads x and assigns a field.
            assign(to: node.a)
            walk(node.b)
        default:
            // Blocks, `do`, `repeat` (its condition sees the body's locals), calls, returns,
            // `local function`, and the functions and locals the walk declares.
            return .visitChildren
        }
        return .skipChildren
    }

    /// `local names = values`: the values, then each name in scope.
    mutating func local(_ node: SyntaxNode) {
        let names = Int(node.a)..<Int(node.a + node.b)
        for index in names.upperBound..<(names.upperBound + Int(node.c)) { walk(lists[index]) }
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
            declareLocal(lists[index])
        }
    }

    /// `if`: only the first condition surely runs; a branch after a version test (its own
    /// condition or an earlier one's) is guarded.
    mutating func ifStatement(_ node: SyntaxNode) {
        walk(lists[Int(node.a)])
        noteGuard(lists[Int(node.a)], allowsNot: true)
        conditional { walker in
            var tested = false
            for pair in 0..<Int(node.b) {
                let condition = walker.lists[Int(node.a) + pair * 2]
                if pair > 0 {
                    walker.walk(condition)
                    walker.noteGuard(condition, allowsNot: true)
                }
                tested = tested || walker.isVersionTest(condition)
                walker.versionGuarded(tested) { $0.walk($0.lists[Int(node.a) + pair * 2 + 1]) }
            }
            if node.c >= 0 { walker.versionGuarded(tested) { $0.walk(node.c) } }
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
        var bytes = name
        // An ASCII name (nearly all) is searched in its bytes: `lowercased()` and `contains`
        // were 7% of validate's CPU (perf), for every field an `if` or `and`/`or` tests.
        if let found = bytes.withUTF8({ versionWord(inASCII: $0) }) { return found }
        let lowered = name.lowercased()
        return lowered.contains("jit") || lowered.contains("lua5") || lowered.contains("version")
    }

    /// Whether an ASCII name holds `jit`, `lua5` or `version` in any case; nil when the name is
    /// not ASCII (its lower case is then Unicode's).
    static func versionWord(inASCII name: UnsafeBufferPointer<UInt8>) -> Bool? {
        if name.contains(where: { $0 >= 0x80 }) { return nil }
        for word in versionWords where word.count <= name.count {
            for start in 0...(name.count - word.count) {
                var offset = 0
                while offset < word.count {
                    let byte = name[start + offset]
                    let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                    if lower != word[offset] { break }
                    offset += 1
                }
                if offset == word.count { return true }
            }
        }
        return false
    }

    static let versionWords: [[UInt8]] = [Array("jit".utf8), Array("lua5".utf8), Array("version".utf8)]

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
                walk(nodes[Int(base)].b)
                base = nodes[Int(base)].a
            }
            if node.kind != .index || nodes[Int(base)].kind != .name { walk(base) }
            walk(node.b)
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
}
