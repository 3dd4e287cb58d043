import FlowTestSupport
import Foundation
import Testing
@testable import FlowAnalysis
@testable import LuaSyntax

/// One analyzer reused across many modules must learn exactly what a fresh one learns from each.
@Suite struct ReusableAnalyzerTests {
    /// Facts from a parser, symbol table and walker made for this chunk alone.
    func freshFacts(_ bytes: [UInt8]) -> ModuleFacts? {
        guard let tree = try? LuaParser.parse(bytes) else { return nil }
        return ModuleAnalyzer.facts(of: tree)
    }

    @Test func sameFactsAsAFreshAnalyzerForEveryInstalledFile() throws {
        let files = InstalledLua.files()
        #expect(files.count > 50, "expected Debian's Lua packages under /usr/share/lua")
        let sources = try files.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        // Chunks that fail halfway leave a parser mid-file; the next chunk must not notice.
        let broken: [[UInt8]] = [Array("local function f(\n  return 1\n".utf8), Array("x = 'unfinished".utf8), []]
        let analyzer = ReusableModuleAnalyzer()
        var mismatches: [String] = []
        var analysed = 0
        // Both orders: a big file followed by a small one, and the other way round.
        for (path, bytes) in zip(files + files.reversed(), sources + sources.reversed()) {
            for junk in broken {
                #expect(junk.withUnsafeBytes { analyzer.analyze($0) } == freshFacts(junk))
            }
            let reused = bytes.withUnsafeBytes { analyzer.analyze($0) }
            if reused != nil { analysed += 1 }
            if reused != freshFacts(bytes) { mismatches.append(path) }
        }
        #expect(analysed > 100)
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    /// Validation leaves string literals out when the project has no resources: nothing else changes.
    @Test func withoutStringLiteralsOnlyThoseAreMissing() throws {
        let source = Array("local x = require 'a.b'\nprint(getResource('img/logo', 'png'), 'text', y)\n".utf8)
        let analyzer = ReusableModuleAnalyzer()
        let full = try #require(source.withUnsafeBytes { analyzer.analyze($0) })
        var lean = try #require(source.withUnsafeBytes { analyzer.analyze($0, collectsStringLiterals: false) })
        #expect(full.stringLiterals == ["a.b", "img/logo", "png", "text"])
        #expect(lean.stringLiterals.isEmpty)
        lean.stringLiterals = full.stringLiterals
        #expect(lean == full)
    }

    @Test func symbolsKeepTheirIdsAfterARestart() throws {
        let analyzer = ReusableModuleAnalyzer()
        let first = Array("local a = require 'x'\nb = getResource('img/logo', 'png')\n".utf8)
        let second = Array("print(pcall(require, 'y'), _ENV, self, zzz)\nlocal t = {require = 1}\n".utf8)
        for source in [first, second, first, second] {
            #expect(source.withUnsafeBytes { analyzer.analyze($0) } == freshFacts(source))
        }
        let facts = try #require(second.withUnsafeBytes { analyzer.analyze($0) })
        #expect(facts.requires.map(\.module) == ["y"])
        #expect(facts.globalReads.map(\.name) == ["print", "pcall", "require", "self", "zzz"])
    }

    /// The table compares short symbols by their first and last eight bytes: longer ones that
    /// share those (and their length) must still be told apart, at every length around 16.
    @Test func symbolsThatShareTheirEndsStayDistinct() {
        var table = SymbolTable()
        for _ in 0..<2 {
            var ids: [String: Int32] = [:]
            for length in 1...40 {
                for middle in ["a", "b", "\u{0}", "é"] {
                    let text =
                        String(repeating: "x", count: length / 2) + middle
                        + String(repeating: "y", count: length - length / 2)
                    var bytes = Array(text.utf8)
                    let id = bytes.withUnsafeMutableBufferPointer { table.intern($0.baseAddress!, $0.count) }
                    #expect(ids[text] == nil)
                    ids[text] = id
                    #expect(table.text(of: id) == text)
                    #expect(table.symbol(of: text) == id)
                }
            }
            #expect(Set(ids.values).count == ids.count)
            #expect(table.symbol(of: "local") == Int32(LuaTokenKind.kwLocal.rawValue))
            #expect(table.symbol(of: "") == nil)
            table.removeAll()
            #expect(table.count == LuaTokenKind.keywords.count)
            #expect(table.symbol(of: "xay") == nil)
        }
    }
}
