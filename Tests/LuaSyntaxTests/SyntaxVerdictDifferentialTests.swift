import FlowLua
import FlowTestSupport
import Foundation
import Testing

@testable import LuaSyntax

/// flowpkg's parser against Lua 5.4's compiler on real code and on broken variants of it:
/// the parser may only say "valid" when Lua compiles the chunk (validation then skips Lua).
@Suite struct SyntaxVerdictDifferentialTests {
    /// Debian's Lua packages, nmap's library and scripts, and prosody's modules (from `.ci/setup`).
    static func corpus() -> [String] {
        let roots = [
            "/usr/share/lua", "/usr/share/nmap/nselib", "/usr/share/nmap/scripts",
            "/usr/local/share/flowpkg-test-corpus/usr/lib/prosody",
        ]
        var files: [String] = []
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let path as String in walker where path.hasSuffix(".lua") || path.hasSuffix(".nse") {
                files.append("\(root)/\(path)")
            }
        }
        return files.sorted()
    }

    @Test func neverValidWhereLuaFailsOnRealCode() throws {
        let files = Self.corpus()
        #expect(files.count > 2_000, "expected Debian's Lua packages, nmap-common and the prosody corpus")
        let checker = LuaChunkChecker()
        var disagreements: [String] = []
        var compiled = 0
        var certain = 0
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let verdict = LuaParser.verdict(bytes)
            let compiles = LuaVerdict.compiles(bytes, with: checker)
            if verdict.isValid && !compiles { disagreements.append(path) }
            if compiles { compiled += 1 }
            if compiles && verdict.isValid { certain += 1 }
        }
        #expect(disagreements.isEmpty, "valid to flowpkg, rejected by Lua: \(disagreements)")
        // The point of the screen: nearly all real code skips Lua's compiler.
        #expect(certain * 100 >= compiled * 99, "\(compiled - certain) of \(compiled) files sent to Lua")
    }

    @Test func neverValidWhereLuaFailsOnMutants() throws {
        var random = SplitMix(seed: 0x5EED_0034)
        // Small files, so that many variants stay cheap; a fixed sample of them.
        let files = try Self.corpus().map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
            .filter { $0.count < 6_000 }
        #expect(files.count > 300)
        let checker = LuaChunkChecker()
        var disagreements: [String] = []
        var rejected = 0
        var total = 0
        for _ in 0..<1_500 {
            let source = files[random.below(files.count)]
            for _ in 0..<4 {
                var mutant = source
                for _ in 0...random.below(3) { LuaMutation.apply(to: &mutant, using: &random) }
                total += 1
                let compiles = LuaVerdict.compiles(mutant, with: checker)
                if !compiles { rejected += 1 }
                if LuaParser.verdict(mutant).isValid && !compiles {
                    disagreements.append(String(decoding: mutant, as: UTF8.self))
                }
            }
        }
        #expect(
            disagreements.isEmpty,
            "valid to flowpkg, rejected by Lua:\n\(disagreements.prefix(2).map { String($0.prefix(3_000)) }.joined(separator: "\n----\n"))"
        )
        // The mutations do break code (else the test would prove little).
        #expect(rejected * 3 > total)
    }
}

/// A fixed-seed generator, so every run tries the same variants.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
}

/// Token-level damage: delete, duplicate or swap tokens, truncate, insert keywords, operators
/// and the constructs Lua's compiler checks beyond the grammar.
enum LuaMutation {
    static let insertions: [String] = [
        " end ", " local ", " function ", " do ", " then ", " until ", " repeat ", " return ", " break ",
        " goto continue ", " ::continue:: ", " goto done ", " ::done:: ", " = ", " == ", " .. ", " ... ",
        "(", ")", "{", "}", "[", "]", "[[", "]]", "[=[", "'", "\"", "\\", "--[[", ";", ",", ":", "::", ".",
        " <const> ", " <close> ", " local k <const> = 1 k = 2 ", " local a <close>, b <close> ",
        "0x", "1e", "3.", ".5", "0x1p", "\\x", "\\u{", "\\300", " not ", " and ", " or ", " # ", " ~ ",
        " local x ", " x = 1 ", " if x then ", " else ", " elseif ", " while x do ", " for i = 1, 2 do ",
    ]

    static func apply(to bytes: inout [UInt8], using random: inout SplitMix) {
        guard !bytes.isEmpty else {
            bytes = Array(insertions[random.below(insertions.count)].utf8)
            return
        }
        let tokens = tokenRanges(in: bytes)
        guard !tokens.isEmpty else { return }
        let token = tokens[random.below(tokens.count)]
        switch random.below(5) {
        case 0:
            bytes.removeSubrange(token)
        case 1:
            bytes.insert(contentsOf: Array(bytes[token]) + [32], at: token.lowerBound)
        case 2:
            let other = tokens[random.below(tokens.count)]
            guard other.lowerBound >= token.upperBound else { return }
            let first = Array(bytes[token])
            let second = Array(bytes[other])
            bytes.replaceSubrange(other, with: first)
            bytes.replaceSubrange(token, with: second)
        case 3:
            bytes.removeSubrange(random.below(bytes.count)...)
        default:
            let text = insertions[random.below(insertions.count)]
            bytes.insert(contentsOf: Array(text.utf8), at: random.below(2) == 0 ? token.lowerBound : token.upperBound)
        }
    }

    /// Names and numbers as one token each, any other non-blank byte as one.
    static func tokenRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        func isWord(_ byte: UInt8) -> Bool {
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 32 || byte == 9 || byte == 10 || byte == 13 {
                index += 1
                continue
            }
            let start = index
            if isWord(byte) {
                while index < bytes.count, isWord(bytes[index]) { index += 1 }
            } else {
                index += 1
            }
            ranges.append(start..<index)
        }
        return ranges
    }
}
