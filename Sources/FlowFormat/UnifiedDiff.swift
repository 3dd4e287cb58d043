#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The difference between two texts as a unified diff (`diff -u`, three lines of context),
/// what `flowpkg fmt --check` prints for each file that would change.
package enum UnifiedDiff {
    /// Past this many differing lines Myers' search stops and the changed middle is shown
    /// as one replacement (still a valid diff, found in bounded time).
    static let searchLimit = 1000

    package static func diff(_ old: [UInt8], _ new: [UInt8], oldName: String, newName: String) -> String {
        let a = lines(old), b = lines(new)
        let edits = script(old, a, new, b)
        let hunks = hunks(edits)
        // The size of the text ahead: the names, and for each hunk its header and a prefix, the
        // bytes and a line feed a line.
        let names = Array("--- \(oldName)\n+++ \(newName)\n".utf8)
        var headers: [[UInt8]] = []
        headers.reserveCapacity(hunks.count)
        var size = names.count
        for hunk in hunks {
            headers.append(header(edits[hunk]))
            size += headers[headers.count - 1].count
            for edit in edits[hunk] {
                size += 2 + (edit.kind == .insert ? b[edit.new].count : a[edit.old].count)
            }
        }
        return String(unsafeUninitializedCapacity: size) { buffer in
            old.withUnsafeBytes { oldBytes in
                new.withUnsafeBytes { newBytes in
                    var out = buffer.baseAddress!
                    func write(_ bytes: UnsafeRawBufferPointer) {
                        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
                        UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: bytes.count)
                        out += bytes.count
                    }
                    names.withUnsafeBytes(write)
                    for (hunk, header) in zip(hunks, headers) {
                        header.withUnsafeBytes(write)
                        for edit in edits[hunk] {
                            out.pointee = edit.kind == .same ? 32 : edit.kind == .delete ? 45 : 43
                            out += 1
                            if edit.kind == .insert {
                                write(UnsafeRawBufferPointer(rebasing: newBytes[b[edit.new]]))
                            } else {
                                write(UnsafeRawBufferPointer(rebasing: oldBytes[a[edit.old]]))
                            }
                            out.pointee = 10
                            out += 1
                        }
                    }
                }
            }
            return size
        }
    }

    /// The hunks of `edits`: each change with three lines of context, changes at most six
    /// unchanged lines apart in one hunk.
    private static func hunks(_ edits: [Edit]) -> [Range<Int>] {
        var hunks: [Range<Int>] = []
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
            hunks.append(start..<end)
            index = end
        }
        return hunks
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

    /// A hunk's `@@ -start,count +start,count @@` line.
    private static func header(_ edits: ArraySlice<Edit>) -> [UInt8] {
        let first = edits[edits.startIndex]
        var oldCount = 0, newCount = 0
        for edit in edits {
            if edit.kind != .insert { oldCount += 1 }
            if edit.kind != .delete { newCount += 1 }
        }
        let oldStart = oldCount == 0 ? first.old : first.old + 1
        let newStart = newCount == 0 ? first.new : first.new + 1
        // Written digit by digit: string interpolation was most of a hunk's cost outside its lines.
        var line: [UInt8] = []
        line.reserveCapacity(64)
        line += "@@ -".utf8
        decimal(oldStart, into: &line)
        line.append(44)
        decimal(oldCount, into: &line)
        line += " +".utf8
        decimal(newStart, into: &line)
        line.append(44)
        decimal(newCount, into: &line)
        line += " @@\n".utf8
        return line
    }

    /// Appends `number`'s decimal digits.
    private static func decimal(_ number: Int, into line: inout [UInt8]) {
        var divisor = 1
        while divisor <= number / 10 { divisor *= 10 }
        var rest = number
        while divisor > 0 {
            line.append(UInt8(48 + rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    struct Edit {
        enum Kind { case same, delete, insert }
        var kind: Kind
        /// Line index in the old text (for an insert: where it goes).
        var old: Int
        /// Line index in the new text (for a delete: where it was).
        var new: Int
    }

    /// The lines of `text` as byte ranges, without their line feeds (a last line feed ends the
    /// last line).
    static func lines(_ text: [UInt8]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        result.reserveCapacity(text.count / 24 + 1)
        text.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0
            while start < bytes.count, let found = memchr(base + start, 10, bytes.count - start) {
                let end = base.distance(to: UnsafeRawPointer(found))
                result.append(start..<end)
                start = end + 1
            }
            if start < bytes.count { result.append(start..<bytes.count) }
        }
        return result
    }

    /// The edit script: common ends kept (compared in place, so a file with a few changed lines
    /// costs one pass over its bytes); in the middle, a line that the other side lacks is
    /// changed for certain (as GNU diff discards such lines), and the rest is matched by Myers'
    /// greedy search. Lines are compared by number (each distinct line numbered once, by
    /// `LineNumbers`), so a reindented file (nearly every line changed) costs about its length.
    static func script(_ old: [UInt8], _ a: [Range<Int>], _ new: [UInt8], _ b: [Range<Int>]) -> [Edit] {
        let (prefix, suffix) = commonEnds(old, a, new, b)
        let numbers = LineNumbers(old, a[prefix..<(a.count - suffix)], new, b[prefix..<(b.count - suffix)])
        var changedA = [Bool](repeating: false, count: a.count)
        var changedB = [Bool](repeating: false, count: b.count)
        // The lines both sides hold (their places in the middle and their numbers), for the
        // search; the others are changed for certain.
        func kept(_ side: [Int32], _ changed: inout [Bool]) -> (places: [Int], values: [Int]) {
            var places: [Int] = [], values: [Int] = []
            for (index, number) in side.enumerated() {
                if numbers.sides[Int(number)] == 3 {
                    places.append(index)
                    values.append(Int(number))
                } else {
                    changed[prefix + index] = true
                }
            }
            return (places, values)
        }
        let (keptA, valuesA) = kept(numbers.old, &changedA)
        let (keptB, valuesB) = kept(numbers.new, &changedB)
        let searched = myers(valuesA, valuesB)
        for (position, changed) in searched.a.enumerated() where changed { changedA[prefix + keptA[position]] = true }
        for (position, changed) in searched.b.enumerated() where changed { changedB[prefix + keptB[position]] = true }
        return edits(changedA, changedB)
    }

    /// How many lines the two texts share at their start, and then at their end, compared in place.
    private static func commonEnds(_ old: [UInt8], _ a: [Range<Int>], _ new: [UInt8], _ b: [Range<Int>])
        -> (prefix: Int, suffix: Int)
    {
        old.withUnsafeBytes { x in
            new.withUnsafeBytes { y in
                var prefix = 0
                while prefix < a.count && prefix < b.count && LineNumbers.equal(x, a[prefix], y, b[prefix]) {
                    prefix += 1
                }
                var suffix = 0
                while suffix < a.count - prefix && suffix < b.count - prefix
                    && LineNumbers.equal(x, a[a.count - 1 - suffix], y, b[b.count - 1 - suffix])
                {
                    suffix += 1
                }
                return (prefix, suffix)
            }
        }
    }

    /// The edits that turn the old lines into the new, from which lines of each side changed.
    private static func edits(_ changedA: [Bool], _ changedB: [Bool]) -> [Edit] {
        var edits: [Edit] = []
        edits.reserveCapacity(changedA.count + changedB.count)
        var i = 0, j = 0
        while i < changedA.count || j < changedB.count {
            if i < changedA.count && changedA[i] {
                edits.append(Edit(kind: .delete, old: i, new: j))
                i += 1
            } else if j < changedB.count && changedB[j] {
                edits.append(Edit(kind: .insert, old: i, new: j))
                j += 1
            } else {
                edits.append(Edit(kind: .same, old: i, new: j))
                i += 1
                j += 1
            }
        }
        return edits
    }

    /// Myers' O(ND) search over line numbers: which lines of each side change. Past
    /// `searchLimit` differences every line counts as changed (a valid, longer diff).
    static func myers(_ a: [Int], _ b: [Int]) -> (a: [Bool], b: [Bool]) {
        let n = a.count, m = b.count, maximum = min(n + m, searchLimit)
        var changedA = [Bool](repeating: false, count: n), changedB = [Bool](repeating: false, count: m)
        if n == 0 || m == 0 {
            return ([Bool](repeating: true, count: n), [Bool](repeating: true, count: m))
        }
        let offset = maximum + 1
        var frontier = [Int](repeating: 0, count: 2 * maximum + 3)
        // For each step d, the frontier's diagonals -d...d (what the walk back reads).
        var trace: [[Int]] = []
        for d in 0...maximum {
            trace.append(Array(frontier[(offset - d)...(offset + d)]))
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
                if x >= n && y >= m {
                    walkBack(trace, n, m, changedA: &changedA, changedB: &changedB)
                    return (changedA, changedB)
                }
            }
        }
        return ([Bool](repeating: true, count: n), [Bool](repeating: true, count: m))
    }

    /// Marks the changed lines along the path the search found, from its end back.
    private static func walkBack(_ trace: [[Int]], _ n: Int, _ m: Int, changedA: inout [Bool], changedB: inout [Bool]) {
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 1, by: -1) {
            // trace[d] holds diagonals -d...d at indices 0...2d (the frontier before step d).
            let frontier = trace[d]
            func at(_ k: Int) -> Int { frontier[k + d] }
            let k = x - y
            let previousK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1
            let previousX = at(previousK)
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
            }
            if x == previousX {
                changedB[y - 1] = true
            } else {
                changedA[x - 1] = true
            }
            x = previousX
            y = previousY
        }
    }
}
