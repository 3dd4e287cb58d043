import FlowPackage

/// FP403: cycles among top-level requires between project modules. Such a cycle fails at
/// start-up, whatever order the modules load in.
enum RequireCycles {
    static func find(_ modules: [ProjectRules.Module], projectModules: Set<String>) -> [Diagnostic] {
        // Edges: module -> modules it surely requires when it loads, first place each.
        var edges: [String: [(target: String, location: SourceLocation)]] = [:]
        var files: [String: String] = [:]
        for module in modules {
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
            diagnostics.append(Diagnostic(
                severity: .error, code: "FP403",
                message: "require cycle: \(spelled)",
                file: files[first], line: location.line, column: location.column,
                hint: "a module cannot require, at its top level, a module that requires it back; move one require into the function that needs it"))
        }
        return diagnostics
    }

    /// The shortest path from `start` back to itself (without repeating `start`), by breadth-first search.
    private static func shortestCycle(through start: String,
                                      edges: [String: [(target: String, location: SourceLocation)]]) -> [String]? {
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
