import LuaSyntax

extension ModuleTypeCollector {
    /// A call whose callee the module can name: a site for the project's checks. The site (its
    /// arguments' types and places) is made only for a call that is kept.
    mutating func noteCall(_ id: NodeID) {
        let node = tree[id]
        let callee = tree[node.a]
        if node.kind == .methodCall {
            let method = tree[tree.lists[Int(node.b)]]
            noteMember(object: node.a, name: tree.lists[Int(node.b)], call: id, at: method)
            return
        }
        switch callee.kind {
        case .name:
            if let local = resolve(callee.a) {
                if let signature = locals[local].signature {
                    let site = callSite(
                        id, .signature(signature, name: locals[local].name, deprecation: locals[local].deprecation),
                        at: node)
                    types.calls.append(site)
                } else if let literal = locals[local].literal, literal != .table, literal != .function(nil) {
                    localCalls.append((local, Int(callee.line), Int(callee.column)))
                }
            } else {
                types.calls.append(callSite(id, .global(tree.text(of: node.a)), at: node))
            }
        case .index where callee.op == 1:
            noteMember(object: callee.a, name: callee.b, call: id, at: tree[callee.b])
        default:
            break
        }
    }

    /// The site of the call `id` to `callee`, placed at `place` (the call, or its field's or method's name).
    private func callSite(_ id: NodeID, _ callee: CallSite.Callee, at place: SyntaxNode) -> CallSite {
        let arguments = tree.arguments(of: id)
        var site = CallSite(
            callee: callee, isMethodCall: tree[id].kind == .methodCall, arguments: [], line: Int(place.line),
            column: Int(place.column))
        site.arguments.reserveCapacity(arguments.count)
        for (index, argument) in arguments.enumerated() {
            let argumentNode = tree[argument]
            site.arguments.append((literalType(argument), Int(argumentNode.line), Int(argumentNode.column)))
            if let keys = constructorKeys(argument) { site.constructorKeys[index] = keys }
        }
        return site
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

    /// `object.name(…)` or `object:name(…)` (`name` the field's or method's `string` node).
    private mutating func noteMember(object: NodeID, name nameNode: NodeID, call: NodeID, at place: SyntaxNode) {
        let objectNode = tree[object]
        let name = tree.text(of: nameNode)
        guard objectNode.kind == .name else {
            if let module = requiredModule(object) {
                types.calls.append(callSite(call, .moduleField(module: module, name: name), at: place))
            }
            return
        }
        guard let local = resolve(objectNode.a) else {
            types.calls.append(callSite(call, .globalField(table: tree.text(of: object), name: name), at: place))
            return
        }
        if let table = locals[local].table {
            tableCalls.append((table, name, callSite(call, .global(""), at: place)))
        } else if let module = locals[local].requiredModule {
            types.calls.append(callSite(call, .moduleField(module: module, name: name), at: place))
        } else if case .named(let className) = currentType(of: local) {
            types.calls.append(callSite(call, .classField(className: className, name: name), at: place))
            types.fieldReads.append(
                ModuleTypes.FieldRead(
                    className: className, name: name, line: Int(place.line), column: Int(place.column), isCalled: true))
        }
    }
}
