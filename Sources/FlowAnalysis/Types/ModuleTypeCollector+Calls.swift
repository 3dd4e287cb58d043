import LuaSyntax

extension ModuleTypeCollector {
    /// A call whose callee the module can name: a site for the project's checks.
    mutating func noteCall(_ id: NodeID) {
        let node = tree[id]
        let isMethodCall = node.kind == .methodCall
        let arguments = tree.arguments(of: id).map { argument -> (type: LuaType?, line: Int, column: Int) in
            let argumentNode = tree[argument]
            return (literalType(argument), Int(argumentNode.line), Int(argumentNode.column))
        }
        var site = CallSite(
            callee: .global(""), isMethodCall: isMethodCall, arguments: arguments, line: Int(node.line),
            column: Int(node.column))
        for (index, argument) in tree.arguments(of: id).enumerated() {
            if let keys = constructorKeys(argument) { site.constructorKeys[index] = keys }
        }
        let callee = tree[node.a]
        if isMethodCall {
            let method = tree.lists[Int(node.b)]
            site.line = Int(tree[method].line)
            site.column = Int(tree[method].column)
            noteMember(object: node.a, name: tree.text(of: method), site: site)
            return
        }
        switch callee.kind {
        case .name:
            if let local = resolve(callee.a) {
                if let signature = locals[local].signature {
                    site.callee = .signature(
                        signature, name: locals[local].name, deprecation: locals[local].deprecation)
                    types.calls.append(site)
                } else if let literal = locals[local].literal, literal != .table, literal != .function(nil) {
                    localCalls.append((local, Int(callee.line), Int(callee.column)))
                }
            } else {
                site.callee = .global(tree.text(of: node.a))
                types.calls.append(site)
            }
        case .index where callee.op == 1:
            site.line = Int(tree[callee.b].line)
            site.column = Int(tree[callee.b].column)
            noteMember(object: callee.a, name: tree.text(of: callee.b), site: site)
        default:
            break
        }
    }

    /// The keys of a constructor whose fields are all `name = value`; nil for any other.
    func constructorKeys(_ id: NodeID) -> Set<String>? {
        let node = tree[id]
        guard node.kind == .table else { return nil }
        var keys: Set<String> = []
        for field in tree.list(node.a, node.b) {
            let fieldNode = tree[field]
            guard fieldNode.kind == .keyedField, tree[fieldNode.a].kind == .string, tree[fieldNode.a].op == 1 else {
                return nil
            }
            keys.insert(tree.text(of: fieldNode.a))
        }
        return keys
    }

    /// `object.name(…)` or `object:name(…)`.
    private mutating func noteMember(object: NodeID, name: String, site: CallSite) {
        var site = site
        let objectNode = tree[object]
        guard objectNode.kind == .name else {
            if let module = requiredModule(object) {
                site.callee = .moduleField(module: module, name: name)
                types.calls.append(site)
            }
            return
        }
        guard let local = resolve(objectNode.a) else {
            site.callee = .globalField(table: tree.text(of: object), name: name)
            types.calls.append(site)
            return
        }
        if let table = locals[local].table {
            tableCalls.append((table, name, site))
        } else if let module = locals[local].requiredModule {
            site.callee = .moduleField(module: module, name: name)
            types.calls.append(site)
        } else if case .named(let className) = currentType(of: local) {
            site.callee = .classField(className: className, name: name)
            types.calls.append(site)
            types.fieldReads.append(
                ModuleTypes.FieldRead(
                    className: className, name: name, line: site.line, column: site.column, isCalled: true))
        }
    }
}
