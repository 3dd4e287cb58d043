/// Globs (`rspamd_*`, `*_config`, `ngx.*.get`) compiled once and indexed by their fixed start
/// and end, so asking whether a name matches costs about the name's length squared in hash
/// look-ups, not the number of globs: 20,000 globs and 2,000 undefined reads took 17 s when
/// every read tried every glob.
struct GlobIndex: Sendable, Equatable {
    /// One glob split at its `*`s.
    struct Glob: Sendable, Equatable {
        var prefix: [UInt8]
        var middles: [[UInt8]]
        var suffix: [UInt8]
    }

    private struct Key: Hashable, Sendable {
        var prefix: [UInt8]
        var suffix: [UInt8]
    }

    /// Globs of one start and end with parts between them are tried one by one: past this
    /// many for one start and end, the rest are left out (an adversary's list, never a host's).
    static let maximumPerKey = 1_000

    /// The globs as given, in order (what `Environment` shows).
    private(set) var patterns: [String] = []
    private var byKey: [Key: [Glob]] = [:]
    /// Lengths of the starts and ends present, ascending: only those are looked up.
    private var prefixLengths: [Int] = []
    private var suffixLengths: [Int] = []

    static func == (lhs: GlobIndex, rhs: GlobIndex) -> Bool { lhs.patterns == rhs.patterns }

    var isEmpty: Bool { patterns.isEmpty }

    mutating func insert(_ pattern: String) {
        let parts = pattern.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        guard parts.count > 1 else { return }
        let glob = Glob(
            prefix: parts[0], middles: parts.dropFirst().dropLast().filter { !$0.isEmpty }, suffix: parts.last!)
        let key = Key(prefix: glob.prefix, suffix: glob.suffix)
        var bucket = byKey[key, default: []]
        if glob.middles.isEmpty {
            // Without middles, any one glob of this key matches what all of them match.
            if bucket.contains(where: { $0.middles.isEmpty }) { return }
            bucket.insert(glob, at: 0)
        } else {
            guard bucket.count < Self.maximumPerKey, !bucket.contains(glob) else { return }
            bucket.append(glob)
        }
        patterns.append(pattern)
        byKey[key] = bucket
        Self.insert(glob.prefix.count, into: &prefixLengths)
        Self.insert(glob.suffix.count, into: &suffixLengths)
    }

    private static func insert(_ length: Int, into sorted: inout [Int]) {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < length { low = middle + 1 } else { high = middle }
        }
        if low == sorted.count || sorted[low] != length { sorted.insert(length, at: low) }
    }

    /// Whether any glob matches `name`.
    func matches(_ name: String) -> Bool { match(name).matches }

    /// Whether any glob matches `name`, and how many hash look-ups and globs it took to know.
    func match(_ name: String) -> (matches: Bool, work: Int) {
        var work = 0
        guard !byKey.isEmpty else { return (false, work) }
        let text = Array(name.utf8)
        for prefixLength in prefixLengths {
            guard prefixLength <= text.count else { break }
            let prefix = Array(text[..<prefixLength])
            for suffixLength in suffixLengths {
                guard prefixLength + suffixLength <= text.count else { break }
                work += 1
                guard let bucket = byKey[Key(prefix: prefix, suffix: Array(text[(text.count - suffixLength)...]))]
                else { continue }
                for glob in bucket {
                    work += 1
                    if Self.middlesMatch(glob, text) { return (true, work) }
                }
            }
        }
        return (false, work)
    }

    /// The middle parts in order, between the start and the end (which the key matched).
    private static func middlesMatch(_ glob: Glob, _ text: [UInt8]) -> Bool {
        var index = glob.prefix.count
        let end = text.count - glob.suffix.count
        for part in glob.middles {
            var found = false
            while index + part.count <= end {
                if text[index..<(index + part.count)].elementsEqual(part) {
                    index += part.count
                    found = true
                    break
                }
                index += 1
            }
            if !found { return false }
        }
        return true
    }
}
