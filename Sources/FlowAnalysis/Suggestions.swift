/// "Did you mean ...?": the closest candidate by edit distance, when one is close enough.
///
/// Built once per set of candidates and asked many times (every unknown require or global of
/// a project), so candidates are lowered once, indexed by their lowered bytes and grouped by
/// length, and answers are remembered. A word one edit from a candidate (the usual typo) is
/// answered from the index, by looking up each of its one-edit neighbours, whatever the number
/// of candidates (500,000 globals from a `.luacheckrc`); only farther words scan, within a budget.
package struct Suggestions {
    /// The candidates as given, and each one lowered (the same string when it has no capital).
    private let candidates: [String]
    private let lowered: [String]
    /// Candidates by byte length, as indices into `candidates`: made at the first scan, since
    /// the index answers most words (with 500,000 names, making it took a debug build 1.5 s).
    private var byLength: [Int: [Int]]?
    /// A lowered candidate → the least original that lowers to it; the others, when there are
    /// others (`Print` and `print`), in `moreLowered`.
    private var byLowered: [String: String] = [:]
    private var moreLowered: [String: [String]] = [:]
    /// Every byte some lowered candidate holds: what an inserted or replaced byte may be.
    private var alphabet: [UInt8] = []
    private var answers: [String: String?] = [:]
    /// Edit distances still allowed: a hint is worth little against 500,000 names, and 200 reads
    /// of them took 26 s. Past this, and past `maximumPerWord` for one word, no suggestion.
    private(set) var remainingComparisons: Int
    private let perWord: Int

    /// Edit distances one set of candidates may compute over all its questions.
    static let maximumComparisons = 1_000_000
    /// Candidates compared with one word, nearest lengths first.
    static let maximumPerWord = 20_000

    init<S: Sequence>(
        _ candidates: S, maximumComparisons: Int = Suggestions.maximumComparisons,
        maximumPerWord: Int = Suggestions.maximumPerWord
    ) where S.Element == String {
        remainingComparisons = maximumComparisons
        perWord = maximumPerWord
        self.candidates = Array(candidates)
        var seen = [Bool](repeating: false, count: 256)
        // One pass over each name's bytes; a byte only an original held (the `A` of `Ab`) joins
        // the alphabet too, which tries more neighbours but finds no other candidate.
        lowered = self.candidates.map { candidate in
            var plain = true
            for byte in candidate.utf8 {
                seen[Int(byte)] = true
                if byte >= 0x80 || (byte >= 0x41 && byte <= 0x5A) { plain = false }
            }
            guard !plain else { return candidate }
            let lower = candidate.lowercased()
            for byte in lower.utf8 { seen[Int(byte)] = true }
            return lower
        }
        for (candidate, lower) in zip(self.candidates, lowered) {
            guard let first = byLowered[lower] else {
                byLowered[lower] = candidate
                continue
            }
            if candidate == first || moreLowered[lower]?.contains(candidate) == true { continue }
            let least = min(first, candidate)
            byLowered[lower] = least
            moreLowered[lower, default: []].append(least == candidate ? first : candidate)
        }
        alphabet = (0..<256).filter { seen[$0] }.map { UInt8($0) }
    }

    /// Whether the candidates were grouped by length for a scan (a word the index did not answer).
    var hasScanned: Bool { byLength != nil }

    /// Words longer than this are not answered from the index (their neighbours are many).
    static let maximumIndexedLength = 64

    /// The nearest candidate at most one edit from `target` (ties alphabetical), looked up in
    /// the index: `target` itself lowered, then every deletion, transposition, replacement and
    /// insertion of one byte. Nil when none is.
    private func nearestByIndex(_ target: [UInt8], word: String) -> String? {
        func originals(_ bytes: [UInt8]) -> [String] {
            let key = String(decoding: bytes, as: UTF8.self)
            // An edit that splits a character is no candidate's bytes (decoding repaired it).
            guard let first = byLowered[key], bytes.allSatisfy({ $0 < 0x80 }) || key.utf8.elementsEqual(bytes)
            else { return [] }
            return ([first] + (moreLowered[key] ?? [])).filter { $0 != word }
        }
        if let same = originals(target).min() { return same }
        var best: String?
        func consider(_ bytes: [UInt8]) {
            for text in originals(bytes) where best == nil || text < best! { best = text }
        }
        var edited = target
        for index in target.indices {
            edited.remove(at: index)
            consider(edited)
            edited.insert(target[index], at: index)
            if index + 1 < target.count, target[index] != target[index + 1] {
                edited.swapAt(index, index + 1)
                consider(edited)
                edited.swapAt(index, index + 1)
            }
            for byte in alphabet where byte != target[index] {
                edited[index] = byte
                consider(edited)
            }
            edited[index] = target[index]
        }
        for index in 0...target.count {
            edited.insert(0, at: index)
            for byte in alphabet {
                edited[index] = byte
                consider(edited)
            }
            edited.remove(at: index)
        }
        return best
    }

    /// The candidate nearest `word` (ties broken alphabetically), if within a third of its length (at least 1, at most 3).
    mutating func closest(to word: String) -> String? {
        if let known = answers[word] { return known }
        let target = Array(word.lowercased().utf8)
        if target.count <= Self.maximumIndexedLength, let near = nearestByIndex(target, word: word) {
            answers[word] = .some(near)
            return near
        }
        let limit = min(3, max(1, target.count / 3))
        var best: (distance: Int, text: String)?
        var allowed = min(remainingComparisons, perWord)
        // Nearest lengths first, so a cut search has tried the likeliest candidates.
        let lengths = (0...limit).flatMap { $0 == 0 ? [target.count] : [target.count - $0, target.count + $0] }
        if byLength == nil {
            var made: [Int: [Int]] = [:]
            for (index, lower) in lowered.enumerated() { made[lower.utf8.count, default: []].append(index) }
            byLength = made
        }
        search: for length in lengths where length >= 0 {
            for index in byLength?[length] ?? [] where candidates[index] != word {
                let candidate = (bytes: Array(lowered[index].utf8), text: candidates[index])
                guard allowed > 0 else { break search }
                allowed -= 1
                remainingComparisons -= 1
                let distance = Suggestions.editDistance(target, candidate.bytes)
                guard distance <= limit else { continue }
                if best == nil || distance < best!.distance
                    || (distance == best!.distance && candidate.text < best!.text)
                {
                    best = (distance, candidate.text)
                }
            }
        }
        answers[word] = .some(best?.text)
        return best?.text
    }

    /// One-off lookup.
    static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        var suggestions = Suggestions(candidates)
        return suggestions.closest(to: word)
    }

    /// Levenshtein distance counting an adjacent transposition as one edit (`pirnt` -> `print`).
    package static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
