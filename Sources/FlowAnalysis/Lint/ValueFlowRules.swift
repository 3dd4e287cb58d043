import LuaSyntax

/// Follows each value of a local that has more than one (`ValueFlow`) and judges it: 311–313
/// and 331 for a value nothing reads, 321 and 341 for a read only the empty declaration reaches.
extension ValueFlow {
    mutating func follow() {
        var candidates: [Int32] = []
        for (index, variable) in variables.enumerated()
        where variable.symbol >= 0 && variable.symbol != underscoreSymbol
            && (variable.valueCount >= 2 || variable.setInClosure)
        {
            candidates.append(Int32(index))
        }
        guard !candidates.isEmpty else { return }
        var visited = [Int32](
            repeating: 0, count: functions[0..<functionCount].reduce(0) { max($0, $1.items.count) })
        var stamp: Int32 = 0
        var work: [Int32] = []
        // Which values reach each read or fill (by action position): 1 the empty declaration's,
        // 2 another. Flags by position, and the positions set, so clearing costs no more than
        // setting; each candidate's then kept, in position order, as a range of `reaches`.
        var reach = [UInt8](
            repeating: 0, count: functions[0..<functionCount].reduce(0) { max($0, $1.actions.count) })
        var touched: [Int32] = []
        var reaches: [(position: Int32, flags: UInt8)] = []
        var ranges: [Range<Int>] = []
        for variable in candidates {
            for value in valuesOf(variable) where values[Int(value)].replacedAt == 0 {
                stamp += 1
                propagate(value, visited: &visited, stamp: stamp, work: &work, reach: &reach, touched: &touched)
            }
            touched.sort()
            let start = reaches.count
            for position in touched {
                reaches.append((position, reach[Int(position)]))
                reach[Int(position)] = 0
            }
            ranges.append(start..<reaches.count)
            touched.removeAll(keepingCapacity: true)
        }
        followClosures(candidates: Set(candidates), visited: &visited, stamp: &stamp, work: &work)
        for (position, variable) in candidates.enumerated() {
            judge(variable, reach: reaches[ranges[position]])
        }
        judgeClosureSets(visited: &visited, stamp: &stamp, work: &work)
    }

    /// luacheck's rule for a value set inside a closure: it is used when a read of the local
    /// can follow the closure's making (a read in the function that owns the local, or in any
    /// closure made where the walk from there passes), or when a closure reading it is made
    /// before, on a way that reaches this one's making.
    mutating func judgeClosureSets(visited: inout [Int32], stamp: inout Int32, work: inout [Int32]) {
        for set in closureSets {
            let variable = variables[Int(set.variable)]
            guard variable.accessed, variable.symbol >= 0, variable.symbol != underscoreSymbol else { continue }
            let function = functions[Int(variable.function)]
            func reads(_ item: Item) -> Bool {
                for position in Int(item.actionStart)..<Int(item.actionEnd) {
                    let action = function.actions[position]
                    if action.variable == set.variable, action.kind == .access || action.kind == .mutation {
                        return true
                    }
                }
                for position in Int(item.closureStart)..<Int(item.closureEnd) {
                    let closure = functions[Int(function.created[position])]
                    if closure.accessedUpvalues.contains(set.variable) || closure.mutatedUpvalues.contains(set.variable)
                    {
                        return true
                    }
                }
                return false
            }
            /// Whether the walk from `start` passes an item `stop` says yes to.
            func walk(from start: Int32, until stop: (Int32, Item) -> Bool) -> Bool {
                stamp += 1
                work.removeAll(keepingCapacity: true)
                work.append(start)
                while let index = work.popLast() {
                    guard index >= 0, index < function.items.count, visited[Int(index)] != stamp else { continue }
                    visited[Int(index)] = stamp
                    let item = function.items[Int(index)]
                    if stop(index, item) { return true }
                    switch item.kind {
                    case .jump: work.append(item.target)
                    case .conditionalJump: work.append(contentsOf: [item.target, index + 1])
                    default: work.append(index + 1)
                    }
                }
                return false
            }
            if walk(from: set.item, until: { reads($1) }) { continue }
            // A reading closure made earlier, on a way that comes here.
            var madeBefore = false
            for (index, item) in function.items.enumerated() where item.closureEnd > item.closureStart && reads(item) {
                if walk(from: Int32(index), until: { index, _ in index == set.item }) {
                    madeBefore = true
                    break
                }
            }
            if madeBefore { continue }
            findings.append(
                UnusedValueRule.finding(line: set.line, column: set.column, name: symbolText(variable.symbol)))
        }
    }

    /// Follows one value from the item after the one that gives it: every read it reaches uses
    /// it, and the walk stops where the variable is set again or leaves its scope.
    mutating func propagate(
        _ valueIndex: Int32, visited: inout [Int32], stamp: Int32, work: inout [Int32], reach: inout [UInt8],
        touched: inout [Int32]
    ) {
        let value = values[Int(valueIndex)]
        let variableIndex = value.variable
        let variable = variables[Int(variableIndex)]
        let function = functions[Int(variable.function)]
        let flag: UInt8 = value.isEmpty ? 1 : 2
        var used = false
        var mutated = false
        var overwriting: Int32 = -1
        var overwritingLine: Int32 = 0
        work.removeAll(keepingCapacity: true)
        work.append(value.item + 1)
        while let index = work.popLast() {
            guard index >= 0, index < function.items.count else {
                overwriting = -2
                continue
            }
            if visited[Int(index)] == stamp { continue }
            visited[Int(index)] = stamp
            guard index >= variable.scopeStart, index <= variable.scopeEnd else {
                overwriting = -2
                continue
            }
            let item = function.items[Int(index)]
            let circular = item.circular == variableIndex
            var sets = false
            var setLine: Int32 = 0
            for position in Int(item.actionStart)..<Int(item.actionEnd) {
                let action = function.actions[position]
                guard action.variable == variableIndex else { continue }
                switch action.kind {
                case .access:
                    if !circular {
                        used = true
                        if reach[position] == 0 { touched.append(Int32(position)) }
                        reach[position] |= flag
                    }
                case .mutation:
                    mutated = true
                    if reach[position] == 0 { touched.append(Int32(position)) }
                    reach[position] |= flag
                case .set:
                    if !sets { setLine = action.line }
                    sets = true
                }
            }
            for position in Int(item.closureStart)..<Int(item.closureEnd) {
                // Read in place: a copy of the closure's `Function` retains its six arrays.
                let closure = Int(function.created[position])
                if !circular, functions[closure].accessedUpvalues.contains(variableIndex) { used = true }
                if functions[closure].mutatedUpvalues.contains(variableIndex) { mutated = true }
            }
            if sets {
                if overwriting == -1 {
                    overwriting = index
                    overwritingLine = setLine
                } else if overwriting != index {
                    overwriting = -2
                }
                continue
            }
            switch item.kind {
            case .jump:
                work.append(item.target)
            case .conditionalJump:
                work.append(item.target)
                work.append(index + 1)
            default:
                work.append(index + 1)
            }
        }
        values[Int(valueIndex)].used = values[Int(valueIndex)].used || used
        values[Int(valueIndex)].mutated = values[Int(valueIndex)].mutated || mutated
        values[Int(valueIndex)].overwriting = overwriting
        values[Int(valueIndex)].overwritingLine = overwritingLine
    }

    /// A closure may run at any time after it is made: each value set after that, of a local it
    /// reads (or fills), is used (or filled) by it.
    mutating func followClosures(
        candidates: Set<Int32>, visited: inout [Int32], stamp: inout Int32, work: inout [Int32]
    ) {
        for functionIndex in 0..<functionCount {
            let function = functions[functionIndex]
            for (index, item) in function.items.enumerated() where item.closureEnd > item.closureStart {
                var read: [Int32] = []
                var filled: [Int32] = []
                for position in Int(item.closureStart)..<Int(item.closureEnd) {
                    let closure = functions[Int(function.created[position])]
                    for variable in closure.accessedUpvalues
                    where candidates.contains(variable) && variables[Int(variable)].function == Int32(functionIndex) {
                        read.append(variable)
                    }
                    for variable in closure.mutatedUpvalues
                    where candidates.contains(variable) && variables[Int(variable)].function == Int32(functionIndex) {
                        filled.append(variable)
                    }
                }
                guard !read.isEmpty || !filled.isEmpty else { continue }
                stamp += 1
                work.removeAll(keepingCapacity: true)
                work.append(Int32(index))
                while let next = work.popLast() {
                    guard next >= 0, next < function.items.count, visited[Int(next)] != stamp else { continue }
                    visited[Int(next)] = stamp
                    let reached = function.items[Int(next)]
                    for position in Int(reached.actionStart)..<Int(reached.actionEnd) {
                        let action = function.actions[position]
                        guard action.kind == .set, action.value >= 0 else { continue }
                        if read.contains(action.variable) { values[Int(action.value)].used = true }
                        if filled.contains(action.variable) { values[Int(action.value)].mutated = true }
                    }
                    switch reached.kind {
                    case .jump:
                        work.append(reached.target)
                    case .conditionalJump:
                        work.append(reached.target)
                        work.append(next + 1)
                    default:
                        work.append(next + 1)
                    }
                }
            }
        }
    }

    /// luacheck's verdict on a local with several values.
    mutating func judge(_ variableIndex: Int32, reach: ArraySlice<(position: Int32, flags: UInt8)>) {
        let variable = variables[Int(variableIndex)]
        let name = symbolText(variable.symbol)
        let all = valuesOf(variableIndex).map { values[Int($0)] }
        // 321, 341: reads and fills only the empty declaration reaches.
        if !variable.setInClosure, all.contains(where: \.isEmpty) {
            let actions = functions[Int(variable.function)].actions
            for (position, flags) in reach where flags == 1 {
                let action = actions[Int(position)]
                findings.append(
                    LintFinding(
                        action.kind == .access ? 321 : 341, line: action.line, column: action.column, name: name))
            }
        }
        let isFunction =
            (all.count == 1 && all[0].isFunction) || (all.count == 2 && all[0].isEmpty && all[1].isFunction)
        guard !isFunction, variable.accessed || variable.mutated else { return }
        let noneAccessible = !variable.setInClosure && !all.contains(where: \.isExternallyAccessible)
        if !variable.accessed, noneAccessible { return }
        for value in all where !value.isEmpty && !value.used {
            if !value.mutated {
                var number = 311
                if value.isInitial, variable.kind == .argument { number = 312 }
                if value.isInitial, variable.kind == .loop { number = 313 }
                let overwritten = value.overwriting >= 0 && value.overwriting != value.item
                var detail = overwritten ? String(value.overwritingLine) : ""
                if value.replacedAt != 0 { detail = String(value.replacedAt) }
                findings.append(
                    LintFinding(number, line: value.line, column: value.column, name: name, detail: detail))
            } else if !value.isExternallyAccessible, !variable.setInClosure, variable.accessed || !noneAccessible {
                findings.append(MutatedUnusedValueRule.finding(line: value.line, column: value.column, name: name))
            }
        }
    }
}
