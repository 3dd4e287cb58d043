import LuaSyntax

/// Where a function fails when a parameter is nil: the first statement of its body that names
/// the parameter, if every statement before it runs straight on (a `local`, an assignment or a
/// call, not `error` nor `os.exit`) and it only uses the parameter in a way nil fails (`p.x`,
/// `p[k]`, `p:m()`, `p()`, arithmetic, `..`, `#p`, `<`), never passing, testing or setting it,
/// and not past an `and`/`or`. A statement making a function stops the search: the function
/// may set the parameter.
extension ModuleLinter {
    func nilFailures(in body: Int32, of parameters: [Int32]) -> [Int32] {
        var result = [Int32](repeating: 0, count: parameters.count)
        var decided = parameters.map { $0 < 0 }
        for statement in syntax.statementsOf(body) {
            let node = nodes[Int(statement)]
            var roots: [(Int32, Use)] = []
            switch node.kind {
            case .local:
                for index in Int(node.a + node.b)..<Int(node.a + node.b + node.c) {
                    roots.append((lists[index], .neutral))
                }
            case .assignment:
                for index in Int(node.a)..<Int(node.a + node.b + node.c) { roots.append((lists[index], .neutral)) }
            case .callStatement:
                roots.append((node.a, .neutral))
            case .returnStatement:
                for index in Int(node.a)..<Int(node.a + node.b) { roots.append((lists[index], .neutral)) }
            default:
                return result
            }
            if makesFunction(roots.map(\.0)) { return result }
            for (position, symbol) in parameters.enumerated() where !decided[position] {
                var failing: Int32 = 0
                var other = false
                var work = roots
                while let (id, use) = work.popLast(), !other {
                    let child = nodes[Int(id)]
                    if child.kind == .name, child.a == symbol {
                        if use == .fails { failing = child.line } else { other = true }
                        continue
                    }
                    children(of: child, use: use, into: &work)
                }
                if other {
                    decided[position] = true
                } else if failing != 0 {
                    decided[position] = true
                    result[position] = failing
                }
            }
            // A local of the same name hides the parameter from here on.
            if node.kind == .local {
                for index in Int(node.a)..<Int(node.a + node.b) {
                    if let position = parameters.firstIndex(of: nodes[Int(lists[index])].a) { decided[position] = true }
                }
            }
            if node.kind == .returnStatement || (node.kind == .callStatement && neverReturns(node.a)) { return result }
            if decided.allSatisfy({ $0 }) { return result }
        }
        return result
    }

    enum Use { case fails, neutral, conditional }

    /// The children of an expression and how each is used: a nil there fails, or not, or it
    /// may not be evaluated at all.
    func children(of node: SyntaxNode, use: Use, into work: inout [(Int32, Use)]) {
        let fails: Use = use == .conditional ? .conditional : .fails
        let neutral: Use = use == .conditional ? .conditional : .neutral
        switch node.kind {
        case .index:
            work.append((node.a, fails))
            work.append((node.b, neutral))
        case .call:
            work.append((node.a, fails))
            for index in Int(node.b)..<Int(node.b + node.c) { work.append((lists[index], neutral)) }
        case .methodCall:
            work.append((node.a, fails))
            for index in Int(node.b + 1)..<Int(node.b + 1 + node.c) { work.append((lists[index], neutral)) }
        case .binary:
            switch BinaryOperator(rawValue: node.op) {
            case .and?, .or?:
                work.append((node.a, neutral))
                work.append((node.b, .conditional))
            case .equal?, .notEqual?:
                work.append((node.a, neutral))
                work.append((node.b, neutral))
            default:
                work.append((node.a, fails))
                work.append((node.b, fails))
            }
        case .unary:
            work.append((node.a, node.op == UnaryOperator.not.rawValue ? neutral : fails))
        case .paren, .positionalField:
            work.append((node.a, neutral))
        case .keyedField:
            work.append((node.a, neutral))
            work.append((node.b, neutral))
        case .table:
            for index in Int(node.a)..<Int(node.a + node.b) { work.append((lists[index], neutral)) }
        default:
            break
        }
    }

    /// Whether one of the expressions holds a function expression.
    func makesFunction(_ roots: [Int32]) -> Bool {
        var work = roots.map { ($0, Use.neutral) }
        while let (id, use) = work.popLast() {
            let node = nodes[Int(id)]
            if node.kind == .function { return true }
            children(of: node, use: use, into: &work)
        }
        return false
    }

    /// `error(...)`, `os.exit(...)`: a call after which the function goes no further.
    func neverReturns(_ call: Int32) -> Bool {
        let node = nodes[Int(call)]
        guard node.kind == .call else { return false }
        let callee = nodes[Int(node.a)]
        if callee.kind == .name { return isGlobal(callee.a) && text(callee.a) == "error" }
        if callee.kind == .index, nodes[Int(callee.a)].kind == .name, nodes[Int(callee.b)].kind == .string {
            return isGlobal(nodes[Int(callee.a)].a) && text(nodes[Int(callee.a)].a) == "os"
                && text(nodes[Int(callee.b)].a) == "exit"
        }
        return false
    }
}
