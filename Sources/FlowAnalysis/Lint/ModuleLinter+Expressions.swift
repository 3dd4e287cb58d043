import LuaSyntax

/// The walk over expressions, reads and field chains.
extension ModuleLinter {
    // MARK: Expressions

    mutating func expression(_ id: Int32) {
        let node = nodes[Int(id)]
        switch node.kind {
        case .name:
            read(node.a)
        case .vararg:
            frames[frames.count - 1].usesVararg = true
        case .binary, .index, .call, .methodCall:
            leftChain(id)
        case .unary:
            checkNegation(node)
            expression(node.a)
        case .paren, .positionalField:
            expression(node.a)
        case .keyedField:
            expression(node.a)
            expression(node.b)
        case .function:
            function(id)
        case .table:
            checkDuplicateKeys(node)
            for index in Int(node.a)..<Int(node.a + node.b) { expression(lists[index]) }
        default:
            break
        }
    }

    @inline(__always) mutating func read(_ symbol: Int32) {
        let bound = inScope.binding(of: symbol)
        guard bound >= 0 else { return }
        noteUse(of: bound)
        if variables[Int(bound)].insideOwnBody {
            variables[Int(bound)].accessedInOwnBody = true
        } else {
            variables[Int(bound)].accessed = true
        }
        variables[Int(bound)].readWhole = true
    }

    /// Chains that nest on their left (`a + b + c`, `o:m():m()`) are walked with a loop.
    mutating func leftChain(_ id: Int32) {
        let mark = chain.count
        var current = id
        chainLoop: while true {
            // A switch tests the tag at once; `==` four times was a call each (perf).
            switch nodes[Int(current)].kind {
            case .binary, .index, .call, .methodCall: break
            default: break chainLoop
            }
            chain.append(current)
            current = nodes[Int(current)].a
        }
        if nodes[Int(current)].kind == .name, chain.count > mark, let key = syntax.fieldKey(of: chain[chain.count - 1])
        {
            readField(current, key: key, isMethodCall: nodes[Int(chain[chain.count - 1])].kind == .methodCall)
        } else {
            expression(current)
        }
        while chain.count > mark {
            let link = chain.removeLast()
            let node = nodes[Int(link)]
            switch node.kind {
            case .binary:
                checkNegatedComparison(node)
                if node.op == BinaryOperator.and.rawValue || node.op == BinaryOperator.or.rawValue {
                    let saved = isTesting
                    isTesting = true
                    expression(node.b)
                    isTesting = saved
                } else {
                    expression(node.b)
                }
            case .index:
                // `math.pow or f`: the left operand of `and`/`or` is tested too.
                var tested = isTesting
                if let parent = chain.last, chain.count > mark {
                    let outer = nodes[Int(parent)]
                    tested =
                        tested
                        || (outer.kind == .binary && outer.a == link
                            && (outer.op == BinaryOperator.and.rawValue || outer.op == BinaryOperator.or.rawValue))
                }
                checkLibraryField(node, tested: tested)
                expression(node.b)
            case .call:
                noteCall(link)
                for index in Int(node.b)..<Int(node.b + node.c) { expression(lists[index]) }
            default:  // method call: the name, then the arguments
                noteCall(link)
                for index in Int(node.b + 1)..<Int(node.b + 1 + node.c) { expression(lists[index]) }
            }
        }
    }
}
