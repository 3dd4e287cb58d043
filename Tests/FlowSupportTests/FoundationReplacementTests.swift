@testable import FlowSupport
import FlowTestSupport
import Foundation
import Testing

/// FlowSupport's stand-ins for the Foundation APIs FoundationEssentials leaves out give what
/// Foundation gives for the same input (the tests link Foundation; flowpkg does not).
@Suite struct FoundationReplacementTests {
    @Test func trimmingSpacesIsTrimmingWhitespaces() {
        for text in ["", "  ", " a ", "\ta b\t", "\u{00A0}x\u{2003}", "\nline\n", " é ", "a\u{0301} ", "\r x \r"] {
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
            #expect(text.dropFirst(0).trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func printfIsStringFormat() {
        for value in [0.0, 0.5, 2, 30, 1e-7, 123_456_789.25, 1.0 / 3] {
            #expect(String(printf: "%g", value) == String(format: "%g", value))
            #expect(String(printf: "%.1f", value) == String(format: "%.1f", value))
        }
        #expect(String(printf: "%3d%%  ", 7) == String(format: "%3d%%  ", 7))
        #expect(String(printf: " %.1f / %.1f MB", 1.25, 3e6) == String(format: " %.1f / %.1f MB", 1.25, 3e6))
        let long = String(repeating: "9", count: 300)
        #expect(String(printf: "%.0f", Double(long)!) == String(format: "%.0f", Double(long)!))
    }

    @Test func hexDigitsAndGrouping() {
        let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xAB, 0xFF]
        #expect(bytes.hexDigits == bytes.map { String(format: "%02x", $0) }.joined())
        // Every byte, through the array's writer and through the generic one (a slice), and none.
        let every = (0...255).map { UInt8($0) }
        #expect(every.hexDigits == every.map { String(format: "%02x", $0) }.joined())
        #expect(every[16..<32].hexDigits == every[16..<32].map { String(format: "%02x", $0) }.joined())
        #expect([UInt8]().hexDigits == "")
        #expect(
            [Int](arrayLiteral: 0, 7, 999, 1000, 1234, 12_345_678, -4321).map { String(grouping: $0) }
                == ["0", "7", "999", "1,000", "1,234", "12,345,678", "-4,321"])
    }

    @Test func searchingAndReplacing() {
        let text = "a.lua:1: near 'x' near 'y'"
        #expect(text.lastRange(of: " near ").map { text[$0.upperBound...] } == "'y'")
        #expect(text.lastRange(of: "absent") == nil)
        #expect(text.replacingAll("near", with: "by") == text.replacingOccurrences(of: "near", with: "by"))
        #expect(text.replacingAll("", with: "z") == text.replacingOccurrences(of: "", with: "z"))
        #expect("a\r\nb\r".replacingAll("\r", with: "%0D") == "a\r\nb\r".replacingOccurrences(of: "\r", with: "%0D"))
        #expect("abc".padded(to: 5) == "abc".padding(toLength: 5, withPad: " ", startingAt: 0))
        #expect("abcdef".padded(to: 3) == "abcdef")
    }

    @Test func fileFailuresSayTheSystemsReason() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/file")
        #expect(throws: (any Error).self) { try Data(contentsOf: missing) }
        do {
            _ = try ReadableFile(path: missing.path)
            Issue.record("opened a missing file")
        } catch {
            #expect(error.description == "cannot read \(missing.path): No such file or directory")
        }
        #expect(failureReason(POSIXError(.EACCES)) == "Permission denied")
    }

    @Test func readableFileReadsInChunksAndSeeks() throws {
        let scratch = try Scratch("readable")
        defer { scratch.remove() }
        let url = try scratch.file("bytes", (0..<100).map { UInt8($0) })
        let file = try ReadableFile(path: url.path)
        #expect(try file.read(upTo: 30) == Array(0..<30))
        try file.seek(to: 90)
        #expect(try file.read(upTo: 30) == Array(90..<100))
        #expect(try file.read(upTo: 30).isEmpty)
        #expect(FileManager.size(in: try FileManager.default.attributesOfItem(atPath: url.path)) == 100)
    }

    @Test func threadsRunWithTheirNameAndConditionsTimeOut() throws {
        let done = Awaited<String?>(nil)
        DetachedThread.start(name: "flowpkg.test-thread-with-a-long-name", stackSize: 4 << 20) {
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unreadable"
            done.withLock { $0 = name }
        }
        #if os(Linux)
            #expect(done.wait { $0 } == "flowpkg.test-th\n")
        #else
            _ = done.wait { $0 }
        #endif
        let never = Awaited(false)
        #expect(never.wait(until: { $0 ? true : nil }, deadline: Date().addingTimeInterval(0.05)) == nil)
    }
}

extension FoundationReplacementTests {
    @Test func percentDecodingIsRemovingPercentEncoding() {
        for text in ["plain", "a%20b", "%E2%82%AC", "100%", "%zz", "%4", "%C3", "a+b", "%2F%2f", ""] {
            #expect(text.percentDecoded == text.removingPercentEncoding, "\(text)")
        }
    }
}
