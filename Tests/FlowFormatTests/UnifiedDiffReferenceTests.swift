import FlowTestSupport
import Foundation
import Testing

@testable import FlowFormat

/// `fmt --check` prints the same diff whatever the diff's implementation: `UnifiedDiff.diff`
/// gives the bytes of a plain rendering of its algorithm (lines split with `split`, numbered
/// by a `Dictionary`, hunks joined and printed line by line), on real files reformatted and
/// on files with a few lines edited.
@Suite struct UnifiedDiffReferenceTests {
    /// The algorithm written plainly: common ends kept, lines the other side lacks changed,
    /// Myers' search over the rest, hunks with three lines of context joined when at most six
    /// unchanged lines apart.
    static func reference(_ old: [UInt8], _ new: [UInt8], name: String) -> String {
        func lines(_ text: [UInt8]) -> [ArraySlice<UInt8>] {
            var lines = text.split(separator: 10, omittingEmptySubsequences: false)
            if text.last == 10 || text.isEmpty { lines.removeLast() }
            return lines
        }
        let a = lines(old), b = lines(new)
        var prefix = 0
        while prefix < min(a.count, b.count) && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(a.count, b.count) - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        var numbers: [ArraySlice<UInt8>: Int] = [:]
        func number(_ line: ArraySlice<UInt8>) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let x = a[prefix..<(a.count - suffix)].map(number), y = b[prefix..<(b.count - suffix)].map(number)
        let inA = Set(x), inB = Set(y)
        var changedA = [Bool](repeating: false, count: a.count), changedB = [Bool](repeating: false, count: b.count)
        let keptA = x.indices.filter { inB.contains(x[$0]) }, keptB = y.indices.filter { inA.contains(y[$0]) }
        for index in x.indices where !inB.contains(x[index]) { changedA[prefix + index] = true }
        for index in y.indices where !inA.contains(y[index]) { changedB[prefix + index] = true }
        let searched = UnifiedDiff.myers(keptA.map { x[$0] }, keptB.map { y[$0] })
        for (position, changed) in searched.a.enumerated() where changed { changedA[prefix + keptA[position]] = true }
        for (position, changed) in searched.b.enumerated() where changed { changedB[prefix + keptB[position]] = true }
        // Each line of the script: " ", "-" or "+", and its place on each side.
        var script: [(mark: Character, old: Int, new: Int)] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count && changedA[i] {
                script.append(("-", i, j))
                i += 1
            } else if j < b.count && changedB[j] {
                script.append(("+", i, j))
                j += 1
            } else {
                script.append((" ", i, j))
                i += 1
                j += 1
            }
        }
        var text = "--- \(name)\n+++ \(name)\n"
        let changes = script.indices.filter { script[$0].mark != " " }
        var first = 0
        while first < changes.count {
            var last = first
            while last + 1 < changes.count && changes[last + 1] - changes[last] - 1 <= 6 { last += 1 }
            let start = max(changes[first] - 3, 0), end = min(changes[last] + 4, script.count)
            let hunk = script[start..<end]
            let oldCount = hunk.filter { $0.mark != "+" }.count, newCount = hunk.filter { $0.mark != "-" }.count
            let head = hunk[hunk.startIndex]
            text += "@@ -\(oldCount == 0 ? head.old : head.old + 1),\(oldCount)"
            text += " +\(newCount == 0 ? head.new : head.new + 1),\(newCount) @@\n"
            for line in hunk {
                let bytes = line.mark == "+" ? b[line.new] : a[line.old]
                text += String(line.mark) + String(decoding: bytes, as: UTF8.self) + "\n"
            }
            first = last + 1
        }
        return text
    }

    static func expectSame(_ old: [UInt8], _ new: [UInt8], _ name: String) {
        let diff = UnifiedDiff.diff(old, new, oldName: name, newName: name)
        #expect(diff == reference(old, new, name: name), "\(name)")
    }

    @Test func reformattedFilesGiveTheReferenceBytes() throws {
        let files = InstalledLua.files().filter { $0.hasPrefix("/usr/share/lua/5.1/") }.prefix(150)
        #expect(files.count >= 50)
        var compared = 0
        for path in files {
            let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let formatted = try? LuaFormat.format(source), formatted != source else { continue }
            Self.expectSame(source, formatted, path)
            compared += 1
        }
        #expect(compared >= 50)
    }

    /// Formatted files with lines changed, removed, doubled and added at seeded places: hunks
    /// far apart, close enough to join, at both ends; without a last line feed.
    @Test func editedFilesGiveTheReferenceBytes() throws {
        let files = InstalledLua.files().filter { $0.hasPrefix("/usr/share/lua/5.1/") }.prefix(60)
        var random = SeededRandom(seed: 48)
        for path in files {
            let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            var lines = source.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
            let original = lines
            for _ in 0..<(1 + random.next(below: 12)) where !lines.isEmpty {
                let at = random.next(below: lines.count)
                switch random.next(below: 5) {
                case 0: lines[at] += Array(" -- edited".utf8)
                case 1: lines.remove(at: at)
                case 2: lines.insert(lines[at], at: at)
                case 3: lines.insert(Array("end".utf8), at: at)
                default: lines[at] = Array("\t".utf8) + lines[at]
                }
            }
            let joined = Array(lines.joined(separator: [10]))
            Self.expectSame(Array(original.joined(separator: [10])), joined, path)
            Self.expectSame(joined, Array(joined.dropLast(joined.last == 10 ? 1 : 0)), path + " (no last line feed)")
        }
        Self.expectSame([], Array("a\n".utf8), "empty")
        Self.expectSame(Array("a\nb".utf8), [], "emptied")
        Self.expectSame(Array("\n\n\n".utf8), Array("\n\n".utf8), "blank lines")
        Self.expectSame(Array("x\u{e9}y\n".utf8) + [0xff, 10], Array("x\n".utf8), "not UTF-8")
    }
}

/// A small seeded generator (SplitMix64), so the edits are the same at every run.
private struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
