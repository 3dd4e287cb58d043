import LuaSyntax

// The expressions: reads of names and fields, calls (require, getResource, pcall), `and`/`or`.
extension FactsCollector {
    /// An expression, before its children: a global read, a literal, a call's require or
    /// resource, the right operand of `and`/`or` (which may not run).
    mutating func visitExpression(_ id: Int32, _ node: SyntaxNode) {
        switch node.kind {
        case .name:
            // A free name under a local `_ENV` is read from that table; luacheck's 113 (FP405)
            // still counts it a global, as the 1xx lint classes do (see `LintRules.check`).
            if !scopes.isBound(node.a), node.a != environmentSymbol {
                // Lua 5.1 and LuaJIT names in code a version test guards (`if _VERSION == "Lua 5.1"
                // then setfenv(...)`) are compatibility code; read anywhere else, even in a branch
                // (`if #t > 0 then unpack(t) end`), they are reported.
                if versionGuardDepth > 0, !legacySymbols.isEmpty, legacySymbols.contains(node.a) { return }
                facts.globalReads.append(ModuleFacts.GlobalRead(name: text(node.a), location: node.location))
            }
        case .string:
            if node.op == 0 { literal[Int(node.a)] = true }
        case .binary:
            if node.op == BinaryOperator.and.rawValue || node.op == BinaryOperator.or.rawValue {
                noteGuard(node.a)
                noteGuard(node.b)
                pendingOperands.append((node.b, isVersionTest(node.a)))
            }
        case .call:
            recordCall(node)
        case .function:
            functionDepth += 1
        default:
            break
        }
    }

    /// The literal string value of an argument, when it is one.
    @inline(__always) func literalString(_ id: Int32) -> String? {
        let node = nodes[Int(id)]
        return node.kind == .string && node.op == 0 ? text(node.a) : nil
    }

    @inline(__always) func isGlobalName(_ id: Int32, _ symbol: Int32) -> Bool {
        let node = nodes[Int(id)]
        return symbol >= 0 && node.kind == .name && node.a == symbol && isGlobal(symbol)
    }

    /// Records `require "x"`, `pcall(require, "x")`, `xpcall(require, h, "x")` and `getResource("n", "t")`.
    mutating func recordCall(_ call: SyntaxNode) {
        let callee = nodes[Int(call.a)]
        if callee.kind == .index, call.c > 0, isGlobalName(callee.a, tableSymbol),
            literalOrFieldName(callee.b) == "insert", packageField(lists[Int(call.b)]) == "searchers"
        {
            // `table.insert(package.searchers, f)`: a searcher of the program's own.
            facts.addsSearcher = true
        }
        guard callee.kind == .name, call.c > 0 else { return }
        let first = Int(call.b)
        if isGlobalName(call.a, moduleSymbol)
            || (isGlobalName(call.a, setfenvSymbol) && nodes[Int(lists[first])].kind == .number)
        {
            // Lua 5.1's environments (`module(...)`, `setfenv(1, M)`, a stack level): the module's
            // own free names are no longer the globals. `setfenv(f, env)` changes another function's.
            facts.replacesEnvironment = true
            return
        }
        if isGlobalName(call.a, rawsetSymbol) {
            if call.c >= 2, isGlobalTable(lists[first]), let name = literalString(lists[first + 1]) {
                facts.globalWrites.insert(name)
                facts.explicitGlobalWrites.insert(name)
            }
            return
        }
        let inside = functionDepth > 0
        let conditional = conditionalDepth > 0
        if isGlobalName(call.a, requireSymbol) {
            if let module = literalString(lists[first]) {
                facts.requires.append(
                    .init(
                        module: module, location: callee.location, isInsideFunction: inside,
                        isConditional: conditional))
            }
        } else if isGlobalName(call.a, pcallSymbol) || isGlobalName(call.a, xpcallSymbol) {
            let nameIndex = callee.a == pcallSymbol ? 1 : 2
            guard call.c > nameIndex, isGlobalName(lists[first], requireSymbol),
                let module = literalString(lists[first + nameIndex])
            else { return }
            let location = nodes[Int(lists[first])].location
            facts.requires.append(
                .init(
                    module: module, location: location, isInsideFunction: inside, isProtected: true,
                    isConditional: conditional))
        } else if isGlobalName(call.a, getResourceSymbol) {
            guard call.c >= 2, let name = literalString(lists[first]), let type = literalString(lists[first + 1]) else {
                return
            }
            facts.resourceUses.append(
                .init(
                    name: name, type: type, location: callee.location, isInsideFunction: inside,
                    isConditional: conditional))
        }
    }
}
