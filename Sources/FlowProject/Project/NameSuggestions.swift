/// "Did you mean" candidates for a misspelt name, for hints.
enum NameSuggestions {
    /// The candidates closest to `name`: same letters ignoring case first, then within a small
    /// edit distance, best first, at most `limit`.
    static func closest(to name: String, in candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let lowered = Array(name.lowercased().utf8)
        let allowed = max(1, min(3, lowered.count / 3))
        var scored: [(distance: Int, name: String)] = []
        for candidate in candidates where candidate != name {
            let other = Array(candidate.lowercased().utf8)
            guard abs(other.count - lowered.count) <= allowed else { continue }
            let distance = editDistance(lowered, other)
            if distance <= allowed { scored.append((distance, candidate)) }
        }
        scored.sort { ($0.distance, $0.name) < ($1.distance, $1.name) }
        return scored.prefix(limit).map(\.name)
    }

    /// A hint sentence naming the suggestions, or nil when there are none.
    static func hint(for name: String, in candidates: some Sequence<String>, quote: Bool = true) -> String? {
        let names = closest(to: name, in: candidates)
        guard !names.isEmpty else { return nil }
        let listed = names.map { quote ? "'\($0)'" : $0 }
        if listed.count == 1 { return "did you mean \(listed[0])?" }
        return "did you mean " + listed.dropLast().joined(separator: ", ") + " or " + listed.last! + "?"
    }

    /// Edit distance over bytes where swapping two neighbours counts as one edit, the most
    /// common typo (`mian` for `main`): the optimal string alignment distance.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
