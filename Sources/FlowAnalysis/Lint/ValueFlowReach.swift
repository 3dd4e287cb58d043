import LuaSyntax

/// Which functions the value-flow pass may leave out.
///
/// The value classes (311–341) judge only locals that are set after their declaration, in
/// their own function or from a closure (`ValueFlow.follow`): a function that uses none of
/// them (reads, sets or fills), nor has a function inside it that does, adds nothing to the
/// judgement. The lint walk notes each use of a local with the function it is in (`uses`); a
/// function is kept when it uses a local set anywhere in the chunk, and with it every function
/// around it. A function the walk did not meet is kept. This is the rule `ModuleLinter.lint`
/// already applied to a whole chunk (no local set: no value-flow pass), applied per function.
///
/// Building the pass's items for every function was a third of the lint walk's time on the
/// benchmark tree (Benchmarks/README.md, lint speed); the findings are the same.
extension ModuleLinter {
    @inline(__always) mutating func noteUse(of variable: Int32) {
        uses.append((variable, currentFunction))
    }

    /// By node id: true for a function node the value-flow pass may leave out.
    mutating func functionsValueFlowSkips() -> [Bool] {
        var kept = [Bool](repeating: false, count: functionNodes.count)
        kept[0] = true
        for (variable, function) in uses where variables[Int(variable)].assigned {
            var current = Int(function)
            while current >= 0, !kept[current] {
                kept[current] = true
                current = Int(functionParents[current])
            }
        }
        var skipped = [Bool](repeating: false, count: nodes.count)
        for function in 1..<functionNodes.count where !kept[function] {
            skipped[Int(functionNodes[function])] = true
        }
        return skipped
    }
}
