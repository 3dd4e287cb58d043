import LuaSyntax

/// What a whole-project view adds to luacheck (FP481): the fields a module's table surely has,
/// and the fields other modules read from a module they required. A module counts as closed
/// only when it returns a local table (or a constructor) that nothing passes on, indexes with a
/// computed key or gives a metatable: then a field it does not have is a typo.
extension ModuleLinter {
    /// `local B = require "Banner"`, `local M = {a = 1}`: what the local's value is.
    mutating func noteModuleValue(of variable: Int32, value: Int32) {
        let node = nodes[Int(value)]
        if node.kind == .call, node.c == 1, nodes[Int(node.a)].kind == .name, nodes[Int(node.a)].a == requireSymbol,
            isGlobal(requireSymbol), nodes[Int(lists[Int(node.b)])].kind == .string
        {
            variables[Int(variable)].requiredModule = nodes[Int(lists[Int(node.b)])].a
        } else if node.kind == .table, hasNamedKeysOnly(node) {
            variables[Int(variable)].constructor = value
        }
    }

    /// Whether every keyed field of a constructor has a literal string key.
    func hasNamedKeysOnly(_ table: SyntaxNode) -> Bool {
        for index in Int(table.a)..<Int(table.a + table.b) {
            let field = nodes[Int(lists[index])]
            if field.kind == .keyedField, nodes[Int(field.a)].kind != .string { return false }
        }
        return true
    }

    /// The string-keyed fields of a constructor, nil when one key is computed.
    func constructorFields(_ table: SyntaxNode) -> [(String, Int32)]? {
        var fields: [(String, Int32)] = []
        for index in Int(table.a)..<Int(table.a + table.b) {
            let field = nodes[Int(lists[index])]
            guard field.kind == .keyedField else { continue }
            let key = nodes[Int(field.a)]
            guard key.kind == .string else { return nil }
            fields.append((text(key.a), key.line))
        }
        return fields
    }

    /// `v.key` read: a use of v, and for a required module, a field it must have.
    mutating func readField(_ id: Int32, key: Int32, isMethodCall: Bool) {
        let name = nodes[Int(id)]
        let bound = scopes.binding(of: name.a)
        guard bound >= 0 else { return }
        let saved = variables[Int(bound)].readWhole
        read(name.a)
        // A method gets the table as `self`, and may fill it.
        variables[Int(bound)].readWhole = saved || isMethodCall
        let module = variables[Int(bound)].requiredModule
        if module >= 0, !variables[Int(bound)].assigned {
            let keyNode = nodes[Int(key)]
            facts.moduleFieldReads.append(
                .init(global: text(module), field: text(keyNode.a), line: keyNode.line, column: keyNode.column))
        }
    }

    /// The main chunk's `return M` (a local table) or `return {...}`.
    mutating func noteModuleReturn(_ value: Int32) {
        let node = nodes[Int(value)]
        if node.kind == .table {
            if environmentSymbol < 0, let fields = constructorFields(node) {
                facts.exportedFields = fields.map { .init(name: $0.0, line: $0.1) }
            }
            noteReturnedFunctions(node)
            return
        }
        guard node.kind == .name else { return }
        let bound = scopes.binding(of: node.a)
        guard bound >= 0 else { return }
        returnedVariable = bound
    }

    /// `v.key = x` or `function v.key()`: a field v's table gets.
    mutating func noteFieldWrite(_ variable: Int32, key: SyntaxNode) {
        guard key.kind == .string else {
            variables[Int(variable)].computedWrite = true
            let module = variables[Int(variable)].requiredModule
            // Another module's table filled by a computed key: its fields are not known.
            if module >= 0 {
                facts.moduleFieldWrites.append(.init(global: text(module), field: "", line: 0, column: 0))
            }
            return
        }
        fieldWriteLog.append((variable, key.a, key.line))
        let module = variables[Int(variable)].requiredModule
        if module >= 0 {
            facts.moduleFieldWrites.append(
                .init(global: text(module), field: text(key.a), line: key.line, column: key.column))
        }
    }

    /// At the end of the main chunk: the returned local's fields, if nothing opened it.
    mutating func finishModuleFields() {
        // A chunk that names `_ENV` may fill a table through its free names.
        guard returnedVariable >= 0, environmentSymbol < 0 else { return }
        let variable = variables[Int(returnedVariable)]
        guard variable.holdsNewTable, !variable.readWhole, !variable.assigned, !variable.computedWrite else { return }
        var fields: [LintFacts.ExportedField] = []
        if variable.constructor >= 0 {
            for (name, line) in constructorFields(nodes[Int(variable.constructor)]) ?? [] {
                fields.append(.init(name: name, line: line))
            }
        }
        for write in fieldWriteLog where write.variable == returnedVariable {
            fields.append(.init(name: text(write.key), line: write.line))
        }
        facts.exportedFields = fields
    }
}

extension ModuleLinter {
    /// A required module's table passed on whole (`extend(M, ...)`, `setmetatable(M, mt)`) may be
    /// filled there: its fields are not known.
    mutating func noteEscape(of variable: Variable) {
        guard variable.requiredModule >= 0, variable.readWhole else { return }
        facts.moduleFieldWrites.append(.init(global: text(variable.requiredModule), field: "", line: 0, column: 0))
    }
}
