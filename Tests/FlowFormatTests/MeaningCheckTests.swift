import FlowTestSupport
import Foundation
import Testing

@testable import FlowFormat

/// Never a change of meaning: the check refuses what differs, and every file of Debian's Lua
/// code bases (the corpus validate is measured on) formats to the same bytecode and comments.
@Suite struct MeaningCheckTests {
    @Test func aDifferentProgramOrALostCommentIsRefused() throws {
        let checked = CheckedFormat()
        let original = Array("local x = 1 -- one\nreturn x\n".utf8)
        #expect(throws: FormatFailure.self) {
            try checked.verify(original, Array("local x = 2 -- one\nreturn x\n".utf8), chunkName: "a.lua")
        }
        #expect(throws: FormatFailure.self) {
            try checked.verify(original, Array("local x = 1\nreturn x\n".utf8), chunkName: "a.lua")
        }
        #expect(throws: FormatFailure.self) {
            try checked.verify(original, Array("local y = 1 -- one\nreturn x\n".utf8), chunkName: "a.lua")
        }
        try checked.verify(original, Array("local x = 1 -- one\n\n\nreturn x\n".utf8), chunkName: "a.lua")
    }

    /// The corpus: /usr/share/lua, nmap's nselib and scripts, Prosody and awesome.
    static func corpus() -> [String] {
        var files = InstalledLua.files()
        for root in ["/usr/share/nmap", "/usr/local/share/flowpkg-test-corpus"] {
            let found = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            files += found.filter { $0.hasSuffix(".lua") || $0.hasSuffix(".nse") }.map { root + "/" + $0 }
        }
        return files.sorted()
    }

    @Test func everyCorpusFileKeepsItsMeaningAndFormattingTwiceChangesNothing() throws {
        let files = Self.corpus()
        #expect(files.count > 2_000)
        let checked = CheckedFormat()
        var refused: [String] = [], unstable: [String] = [], syntaxErrors = 0
        for path in files {
            let source = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let once: [UInt8]
            do {
                once = try checked.format(source, options: FormatOptions(), chunkName: path)
            } catch FormatFailure.syntax, FormatFailure.notCompiled {
                syntaxErrors += 1
                continue
            } catch {
                refused.append("\(path): \(error)")
                continue
            }
            let twice = try checked.format(once, options: FormatOptions(), chunkName: path)
            if twice != once { unstable.append(path) }
        }
        #expect(refused == [])
        // ldoc's documentation stubs of the standard library, in each of /usr/share/lua/5.x.
        #expect(syntaxErrors == 24)
        // Idempotent: the kinds that moved on a second pass are IdempotenceRuleTests' cases.
        #expect(unstable == [])
    }
}
