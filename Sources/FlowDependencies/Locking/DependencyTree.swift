/// `flowpkg tree`: the dependency graph flowpkg.lock pins, each dependency with its version and
/// where it comes from, its own dependencies below it.
public enum DependencyTree {
    public struct Node: Encodable, Sendable, Equatable {
        public var name: String
        public var version: String
        /// `rock`, `path`, `package`, or `host` for a rock the host provides.
        public var kind: String
        /// Where it comes from: the rock's file or URL, the folder, the package file.
        public var origin: String
        public var development: Bool
        public var dependencies: [Node]
    }

    /// What flowpkg.json asks for, at the top, with what each needs below it.
    public static func nodes(of lock: Lockfile) -> [Node] {
        let top =
            lock.dependencies.filter { $0.requested != nil }.map(\.name)
            + lock.providedByHost.filter { $0.requested != nil }.map(\.name)
        return top.sorted().compactMap { node(named: $0, in: lock, chain: []) }
    }

    private static func node(named name: String, in lock: Lockfile, chain: [String]) -> Node? {
        if let rock = lock.providedByHost.first(where: { $0.name == name }) {
            return Node(
                name: name, version: rock.version, kind: "host", origin: "provided by the host", development: false,
                dependencies: [])
        }
        guard let dependency = lock.dependency(named: name), !chain.contains(name) else { return nil }
        let children = dependency.dependencies.compactMap { line -> Node? in
            let needed = String(line.split(separator: " ").first ?? "")
            return node(named: needed, in: lock, chain: chain + [name])
        }
        return Node(
            name: name, version: dependency.version, kind: dependency.kind, origin: dependency.origin,
            development: dependency.development ?? false, dependencies: children.sorted { $0.name < $1.name })
    }

    /// The graph as lines, drawn as `cargo tree` draws it.
    public static func lines(_ nodes: [Node], indent: String = "") -> [String] {
        var lines: [String] = []
        for (index, node) in nodes.enumerated() {
            let last = index == nodes.count - 1
            let branch = last ? "└── " : "├── "
            let place = node.kind == "host" ? node.origin : "\(node.kind) \(node.origin)"
            lines.append(
                indent + branch + "\(node.name) \(node.version) (\(place))" + (node.development ? " [dev]" : ""))
            lines += Self.lines(node.dependencies, indent: indent + (last ? "    " : "│   "))
        }
        return lines
    }
}
