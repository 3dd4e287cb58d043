import FlowLua
import Foundation
import Testing

@testable import FlowProject

/// Chains Lua's compiler takes quadratic time over are refused before it compiles them (FP303).
@Suite struct LongChainTests {
    static func check(_ source: String) -> [String] {
        let checker = ModuleContentChecker(maximumSize: 8 << 20)
        return checker.check(bytes: Array(source.utf8), path: "/p/Sources/chain.lua", chunkName: "chain.lua")
            .diagnostics.map { "\($0.code)@\($0.line ?? 0):\($0.column ?? 0)" }
    }

    @Test(arguments: ["or", "and"])
    func aLongOperatorChainIsFP303(op: String) {
        // 100,000 terms took luac 14 s.
        let source = "local a\nreturn " + Array(repeating: "a", count: 100_000).joined(separator: " \(op) ") + "\n"
        let found = Self.check(source)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("FP303@2:") == true, "\(found)")
    }

    @Test func aLongElseifChainIsFP303() {
        let source = "local a\nif a then\n" + String(repeating: "elseif a then\n", count: 100_000) + "end\n"
        let found = Self.check(source)
        #expect(found == ["FP303@5003:1"], "\(found)")
    }

    @Test func chainsWithinTheLimitCompile() {
        let limit = ChainScanner.maximumChain
        let chain = "local a\nreturn " + Array(repeating: "a", count: limit).joined(separator: " or ") + "\n"
        #expect(Self.check(chain).isEmpty)
        // Many short chains, in statements, arguments, tables and strings, are no long chain.
        var many = "local a, b, f = 1, 2, print\n"
        for _ in 0..<3_000 {
            many += "do local x = a or b and a\nf(a or b, a and b)\nlocal t = { a or b, [a or b] = a and b } end\n"
            many += "if a or b then f('or or or') elseif a and b then end -- or and or\n"
        }
        #expect(Self.check(many).isEmpty)
    }

    /// The pre-check counts byte pairs eight at a time: it must count exactly what a byte loop
    /// counts, wherever the pairs fall against the eight-byte steps and the text's end.
    @Test(arguments: 0..<9)
    func thePairCountIsExact(offset: Int) {
        for (pair, spacing) in [("or", 1), ("an", 3), ("if", 0), ("or", 6)] {
            let count = 40
            var text = String(repeating: "x", count: offset)
            for index in 0..<count {
                text += pair + String(repeating: index % 2 == 0 ? "o" : "a", count: spacing)
            }
            text += String(repeating: "y", count: 200 - text.utf8.count % 7)
            let bytes = Array(text.utf8)
            let limit = min(count, bytes.count / 2 - 1)
            bytes.withUnsafeBytes { buffer in
                #expect(ChainScanner.mayHoldLongChain(buffer, limit: limit - 1), "\(pair) at \(offset)")
                #expect(!ChainScanner.mayHoldLongChain(buffer, limit: limit), "\(pair) at \(offset)")
            }
        }
    }

    @Test func aLuacheckrcWithALongChainIsNotCompiled() {
        let source = "globals = { " + Array(repeating: "'a'", count: 100_000).joined(separator: " or ") + " }"
        #expect(throws: (any Error).self) {
            _ = try LuacheckConfig.evaluate(Array(source.utf8), chunkName: ".luacheckrc")
        }
    }
}
