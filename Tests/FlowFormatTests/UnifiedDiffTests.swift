import FlowTestSupport
import Foundation
import Testing

@testable import FlowFormat

/// `fmt --check`'s diffs: applied to the old text they give the new one, with three lines of
/// context, on small texts and on real files reformatted (nearly every line changed).
@Suite struct UnifiedDiffTests {
    /// `old` with `diff`'s hunks applied, as `patch` would: each hunk's context and deleted
    /// lines must be where it says.
    static func applied(_ diff: String, to old: [Substring]) throws -> [Substring] {
        var lines = diff.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        #expect(lines.count >= 2 && lines[0].hasPrefix("--- ") && lines[1].hasPrefix("+++ "))
        var result: [Substring] = []
        var copied = 0
        var index = 2
        while index < lines.count {
            let header = lines[index]
            let numbers = header.split(whereSeparator: { " ,@+-".contains($0) }).compactMap { Int($0) }
            try #require(header.hasPrefix("@@ -") && numbers.count == 4, "not a hunk header: \(header)")
            let start = numbers[1] == 0 ? numbers[0] : numbers[0] - 1
            try #require(start >= copied)
            result += old[copied..<start]
            copied = start
            var oldCount = 0, newCount = 0
            index += 1
            while index < lines.count && !lines[index].hasPrefix("@@ ") {
                let line = lines[index]
                let text = line.dropFirst()
                switch line.first {
                case " ":
                    try #require(old[copied] == text)
                    result.append(text)
                    copied += 1
                    oldCount += 1
                    newCount += 1
                case "-":
                    try #require(old[copied] == text)
                    copied += 1
                    oldCount += 1
                case "+":
                    result.append(text)
                    newCount += 1
                default:
                    Issue.record("not a diff line: \(line)")
                }
                index += 1
            }
            #expect(oldCount == numbers[1] && newCount == numbers[3], "\(header)")
        }
        return result + old[copied...]
    }

    static func roundTrip(_ old: String, _ new: String) throws -> String {
        let diff = UnifiedDiff.diff(Array(old.utf8), Array(new.utf8), oldName: "a.lua", newName: "a.lua")
        func lines(_ text: String) -> [Substring] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
        let oldLines = lines(old), newLines = lines(new)
        #expect(try applied(diff, to: oldLines) == newLines)
        return diff
    }

    @Test func smallChangesGetHunksWithThreeLinesOfContext() throws {
        let old = (1...20).map { "line \($0)\n" }.joined()
        var newLines = (1...20).map { "line \($0)\n" }
        newLines[4] = "changed 5\n"
        newLines.insert("added\n", at: 15)
        let diff = try Self.roundTrip(old, newLines.joined())
        #expect(
            diff == """
                --- a.lua
                +++ a.lua
                @@ -2,7 +2,7 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +changed 5
                 line 6
                 line 7
                 line 8
                @@ -13,6 +13,7 @@
                 line 13
                 line 14
                 line 15
                +added
                 line 16
                 line 17
                 line 18

                """)
        #expect(try Self.roundTrip("a\nb\n", "") == "--- a.lua\n+++ a.lua\n@@ -1,2 +0,0 @@\n-a\n-b\n")
        #expect(try Self.roundTrip("", "a\n") == "--- a.lua\n+++ a.lua\n@@ -0,0 +1,1 @@\n+a\n")
    }

    @Test func linesMovedOrRepeatedStillApply() throws {
        _ = try Self.roundTrip("a\nb\nc\nd\ne\n", "e\nd\nc\nb\na\n")
        _ = try Self.roundTrip("x\nend\nend\ny\nend\n", "end\nx\nend\ny\nend\nend\n")
        _ = try Self.roundTrip("", "")
    }

    @Test func reformattedRealFilesApply() throws {
        let files = InstalledLua.files().filter { $0.hasPrefix("/usr/share/lua/5.1/") }.prefix(60)
        #expect(files.count >= 20)
        for path in files {
            let source = try String(contentsOfFile: path, encoding: .utf8)
            guard let formatted = try? LuaFormat.format(Array(source.utf8)) else { continue }
            _ = try Self.roundTrip(source, String(decoding: formatted, as: UTF8.self))
        }
    }
}
