/// The difference between two texts as a unified diff (`diff -u`, three lines of context),
/// what `flowpkg fmt --check` prints for each file that would change.
package enum UnifiedDiff {
    /// Past this many differing lines Myers' search stops and the changed middle is shown
    /// as one replacement (still a valid diff, found in bounded time).
    static let searchLimit = 1000

    package static func diff(_ old: [UInt8], _ new: [UInt8], oldName: String, newName: String) -> String {
        let a = lines(old), b = lines(new)
        let edits = script(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        var index = 0
        while index < edits.count {
            guard edits[index].kind != .same else {
                index += 1
                continue
            }
            var start = index
            var context = 0
            while start > 0 && context < 3 && edits[start - 1].kind == .same {
                start -= 1
                context += 1
            }
            var end = index
            var sameRun = 0
            while end < edits.count {
                sameRun = edits[end].kind == .same ? sameRun + 1 : 0
                if sameRun > 6 { break }
                end += 1
            }
            end = min(end, edits.count)
            while end > index && edits[end - 1].kind == .same && trailingSame(edits, index, end) > 3 { end -= 1 }
            out += hunk(edits[start..<end], a, b)
            index = end
        }
        return out
    }

    private static func trailingSame(_ edits: [Edit], _ from: Int, _ end: Int) -> Int {
        var count = 0
        var cursor = end - 1
        while cursor >= from && edits[cursor].kind == .same {
            count += 1
            cursor -= 1
        }
        return count
    }

    private static func hunk(_ edits: ArraySlice<Edit>, _ a: [Substring], _ b: [Substring]) -> String {
        let first = edits[edits.startIndex]
        let oldCount = edits.filter { $0.kind != .insert }.count
        let newCount = edits.filter { $0.kind != .delete }.count
        let oldStart = oldCount == 0 ? first.old : first.old + 1
        let newStart = newCount == 0 ? first.new : first.new + 1
        var out = "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
        for edit in edits {
            switch edit.kind {
            case .same: out += " " + a[edit.old] + "\n"
            case .delete: out += "-" + a[edit.old] + "\n"
            case .insert: out += "+" + b[edit.new] + "\n"
            }
        }
        return out
    }

    struct Edit {
        enum Kind { case same, delete, insert }
        var kind: Kind
        /// Line index in the old text (for an insert: where it goes).
        var old: Int
        /// Line index in the new text (for a delete: where it was).
        var new: Int
    }

    static func lines(_ text: [UInt8]) -> [Substring] {
        let string = String(decoding: text, as: UTF8.self)
        var result = string.split(separator: "\n", omittingEmptySubsequences: false)
        if result.last == "" { result.removeLast() }
        return result
    }

    /// The edit script: common ends kept, the middle by Myers' greedy search.
    static func script(_ a: [Substring], _ b: [Substring]) -> [Edit] {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix
            && a[a.count - 1 - suffix] == b[b.count - 1 - suffix]
        {
            suffix += 1
        }
        var edits = (0..<prefix).map { Edit(kind: .same, old: $0, new: $0) }
        let middleA = Array(a[prefix..<(a.count - suffix)]), middleB = Array(b[prefix..<(b.count - suffix)])
        let middle =
            myers(middleA, middleB)
            ?? (middleA.indices.map { Edit(kind: .delete, old: $0, new: 0) }
                + middleB.indices.map { Edit(kind: .insert, old: middleA.count, new: $0) })
        edits += middle.map { Edit(kind: $0.kind, old: $0.old + prefix, new: $0.new + prefix) }
        edits += (0..<suffix).map { Edit(kind: .same, old: a.count - suffix + $0, new: b.count - suffix + $0) }
        return edits
    }

    /// Myers' O(ND) search, nil past `searchLimit` differences.
    static func myers(_ a: [Substring], _ b: [Substring]) -> [Edit]? {
        let n = a.count, m = b.count, maximum = min(n + m, searchLimit)
        let offset = maximum + 1
        var frontier = [Int](repeating: 0, count: 2 * maximum + 3)
        var trace: [[Int]] = []
        for d in 0...maximum {
            trace.append(frontier)
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]))
                    ? frontier[offset + k + 1] : frontier[offset + k - 1] + 1
                var y = x - k
                while x < n && y < m && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n && y >= m { return backtrack(trace, a.count, b.count, offset: offset) }
            }
        }
        return nil
    }

    private static func backtrack(_ trace: [[Int]], _ n: Int, _ m: Int, offset: Int) -> [Edit] {
        var edits: [Edit] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let frontier = trace[d]
            let k = x - y
            let previousK =
                (k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1])) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : frontier[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                edits.append(Edit(kind: .same, old: x, new: y))
            }
            if d > 0 {
                if x == previousX {
                    edits.append(Edit(kind: .insert, old: x, new: y - 1))
                } else {
                    edits.append(Edit(kind: .delete, old: x - 1, new: y))
                }
            }
            x = previousX
            y = previousY
        }
        return edits.reversed()
    }
}
