import FlowDiagnostics
import FlowPackage
import LuaSyntax

/// FP403 and FP407: cycles among top-level requires between project modules. Lua 5.4's
/// `require` marks nothing as loading, so such a cycle recurses until the C stack overflows
/// when any of its modules is first required: an error (FP403) when one loads at start
/// (`loadedAtStart`, nil for a library), else a warning (FP407). A require inside a function
/// runs after its module is loaded and breaks the cycle.
enum RequireCycles {
    static func find(
        _ modules: [ProjectRules.Module], projectModules: Set<String>, loadedAtStart: Set<String>? = nil
    ) -> [Diagnostic] {
        // First, cheaply on numbers, which modules lie on a cycle at all (usually none): only
        // those can start one, and a breadth-first search from every module would cost
        // modules x requires.
        var numbers: [String: Int] = [:]
        numbers.reserveCapacity(modules.count)
        for (number, module) in modules.enumerated() { numbers[module.name.rawValue] = number }
        // A project module that was not analysed (it did not parse) has no edges: it is on no cycle.
        let next = modules.map { module in
            module.facts.requires.compactMap { $0.runsAtLoad ? numbers[$0.module] : nil }
        }
        let isOnCycle = modulesOnCycles(next)
        guard isOnCycle.contains(true) else { return [] }

        // Edges: module -> modules it surely requires when it loads, first place each. Among the
        // modules on cycles only: a search from one of them never finds its way back through others.
        var edges: [String: [(target: String, location: SourceLocation)]] = [:]
        var files: [String: String] = [:]
        for (number, module) in modules.enumerated() where isOnCycle[number] {
            let name = module.name.rawValue
            files[name] = module.file
            var seen: Set<String> = []
            var list: [(target: String, location: SourceLocation)] = []
            for require in module.facts.requires where require.runsAtLoad {
                guard projectModules.contains(require.module), seen.insert(require.module).inserted else { continue }
                list.append((require.module, require.location))
            }
            edges[name] = list.sorted { $0.target < $1.target }
        }

        var reported: Set<[String]> = []
        var diagnostics: [Diagnostic] = []
        for start in edges.keys.sorted() {
            guard let cycle = shortestCycle(through: start, edges: edges) else { continue }
            // The same cycle found from each of its members is reported once, from its smallest member.
            let rotation = cycle.indices.min { cycle[$0] < cycle[$1] }!
            let canonical = Array(cycle[rotation...] + cycle[..<rotation])
            guard reported.insert(canonical).inserted else { continue }
            let first = canonical[0]
            let second = canonical.count > 1 ? canonical[1] : first
            let location = edges[first]!.first { $0.target == second }!.location
            let spelled = (canonical + [first]).joined(separator: " -> ")
            let atStart = loadedAtStart.map { loaded in canonical.contains { loaded.contains($0) } } ?? true
            diagnostics.append(
                Diagnostic(
                    severity: atStart ? .error : .warning, code: atStart ? .requireCycle : .requireCycleWhenRun,
                    message: atStart
                        ? "require cycle: \(spelled)"
                        : "require cycle: \(spelled) (no module of it loads at start: the first require of one recurses until Lua stops with 'stack overflow')",
                    file: files[first], line: location.line, column: location.column,
                    hint:
                        "a module cannot require, at its top level, a module that requires it back; move one require into the function that needs it"
                ))
        }
        return diagnostics
    }

    /// Which modules lie on a cycle of `next` (module number -> numbers it requires): those in a
    /// strongly connected component of more than one module, or requiring themselves. Tarjan's
    /// algorithm, with an explicit stack so a long chain of modules cannot overflow the thread's.
    private static func modulesOnCycles(_ next: [[Int]]) -> [Bool] {
        let count = next.count
        var order = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var isStacked = [Bool](repeating: false, count: count)
        var isOnCycle = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var counter = 0
        for root in 0..<count where order[root] < 0 {
            var work: [(node: Int, edge: Int)] = []
            func visit(_ node: Int) {
                order[node] = counter
                low[node] = counter
                counter += 1
                stack.append(node)
                isStacked[node] = true
                work.append((node, 0))
            }
            visit(root)
            while let (node, edge) = work.last {
                if edge < next[node].count {
                    work[work.count - 1].edge += 1
                    let target = next[node][edge]
                    if target == node { isOnCycle[node] = true }
                    if order[target] < 0 {
                        visit(target)
                    } else if isStacked[target] {
                        low[node] = min(low[node], order[target])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                guard low[node] == order[node] else { continue }
                var members: [Int] = []
                repeat {
                    let member = stack.removeLast()
                    isStacked[member] = false
                    members.append(member)
                } while members.last != node
                if members.count > 1 { for member in members { isOnCycle[member] = true } }
            }
        }
        return isOnCycle
    }

    /// The shortest path from `start` back to itself (without repeating `start`), by breadth-first search.
    private static func shortestCycle(
        through start: String,
        edges: [String: [(target: String, location: SourceLocation)]]
    ) -> [String]? {
        var parent: [String: String] = [:]
        var queue: [String] = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for edge in edges[current] ?? [] {
                if edge.target == start {
                    var path = [current]
                    while path.last! != start { path.append(parent[path.last!]!) }
                    return path.reversed()
                }
                if parent[edge.target] == nil && edge.target != start {
                    parent[edge.target] = current
                    queue.append(edge.target)
                }
            }
        }
        return nil
    }
}
