import FlowDependencies
import FlowSupport

/// The requires a tree leaves unanswered, answered from the rocks servers (issue 46): `pl.*`
/// gets "the penlight rock provides these: flowpkg add penlight" when a rock on the servers
/// lists those modules (`RockModules`).
extension ExistingCode {
    /// Looks the unanswered requires up on `servers` (absolute folders or URLs), which
    /// flowpkg.json then lists (`rocksServers`, a folder relative to `root`) for `add` and `lock`.
    public mutating func findRocks(servers: [String], root: String, cache: FileCache = .standard()) {
        guard !servers.isEmpty else { return }
        rocksServers = servers.map { $0.contains("://") ? $0 : PathText.relative($0, from: root) }
        let asked = rocksServers.joined(separator: ", ")
        decisions.append("rocksServers: \(asked) (given with --rocks-server)")
        let wanted = missingRequires.filter { name in
            !dependencies.contains { $0.name == name }
        }
        guard !wanted.isEmpty else { return }
        let index: RockModules
        do {
            index = try RockModules.look(servers: servers, cache: cache)
        } catch {
            decisions.append(
                "requires \(Self.listed(wanted)): not in the tree, and \(asked) could not be asked: \(error)")
            return
        }
        var byRock: [String: [String]] = [:]
        var unanswered: [String] = []
        for name in wanted {
            if let rock = index.rock(providing: name) {
                byRock[rock, default: []].append(name)
            } else {
                unanswered.append(name)
            }
        }
        for rock in byRock.keys.sorted() where !dependencies.contains(where: { $0.name == rock }) {
            decisions.append(
                "requires \(Self.listed(byRock[rock] ?? [])): the \(rock) rock provides these: flowpkg add \(rock)")
        }
        if !unanswered.isEmpty {
            decisions.append("requires \(Self.listed(unanswered)): no module of the tree, nor any rock on \(asked)")
        }
    }

    /// Up to four names, then how many more.
    static func listed(_ names: [String]) -> String {
        names.count <= 4
            ? names.joined(separator: ", ") : names.prefix(4).joined(separator: ", ") + " and \(names.count - 4) more"
    }
}
