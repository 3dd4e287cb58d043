import FlowTestSupport
import Foundation
import Testing

@testable import FlowProject

/// "Any project validates in bounded time and memory" (issue 38), as a property every test run
/// checks: the committed corpus of hostile projects (`Tests/Fixtures/fuzz/project`: the
/// issue's `.luacheckrc`, source and flowpkg.json reproducers) and seeded generated projects
/// go through `ProjectProbe`, whose bounds are the allocator's and the hook's own counts.
/// `FLOWPKG_FUZZ_ITERATIONS=2000 swift test --filter ProjectFuzzTests` runs a longer campaign;
/// the coverage-guided one is `Tests/Fuzz/run project`.
@Suite struct ProjectFuzzTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/fuzz/project").standardizedFileURL

    static func scratch() throws -> URL { try Scratch("fuzz").url }

    static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted().map {
            ($0, Array(try Data(contentsOf: corpus.appendingPathComponent($0))))
        }
    }

    @Test func everyCorpusProjectValidatesWithinItsBounds() throws {
        let inputs = try Self.inputs()
        #expect(inputs.count >= 20)
        for (name, bytes) in inputs {
            let folder = try Self.scratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            #expect(ProjectProbe.project(bytes, in: folder) == [], "\(name)")
        }
    }

    /// A seeded generator (so a failure replays): SplitMix64.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let resourceEntries = [
        #""Resources""#, #"{"path": "/proc/self/environ", "name": "env"}"#, #"{"path": "/etc/passwd"}"#,
        #"{"path": "/", "name": "all"}"#, #"{"path": "..", "name": "up"}"#, #"{"path": "/dev/zero", "name": "z"}"#,
        #"{"path": "Sources/main.lua", "name": "self"}"#, #"{"path": "/sys", "name": "sys"}"#,
        #"{"path": "../../../../../../../etc/hostname", "name": "h"}"#,
    ]

    static let luacheckrcPieces = [
        "string.rep('', math.maxinteger)", "table.move({}, 1, math.maxinteger - 1, 1, {})",
        "string.find(string.rep('a', N), string.rep('a*', 12) .. 'b')",
        "xpcall(function() while true do end end, function() while true do end end)",
        "local s = 'x' while true do s = s .. s end", "globals = { 'a', 'b', 'n_*' }",
        "local t = {} for i = 1, N do t[i] = 'g' .. i end globals = t", "std = 'lua54+busted'",
        "files['spec'].std = '+busted'", "while true do pcall(error) end", "read_globals = { ('x'):rep(N) }",
        "error('\\27[2J')", "return", "globals = setmetatable", "for k in pairs(_G) do globals = { k } end",
    ]

    static func source(_ random: inout Seeded) -> String {
        let count = Int.random(in: 0...7_000, using: &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "local a\nreturn " + Array(repeating: "a", count: count + 1).joined(separator: " or ")
        case 1: return "local a\nif a then\n" + String(repeating: "elseif a then\n", count: count) + "end\n"
        case 2:
            let depth = count % 400
            return "return " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        case 3: return (0..<(count % 300)).map { "print(undefined\($0))" }.joined(separator: "\n")
        case 4:
            let bytes = (0..<(count % 2_000)).map { _ in UInt8.random(in: 1...127, using: &random) }
            return String(decoding: bytes, as: UTF8.self)
        default: return "local M = {}\nfunction M.f(x) return x and x or nil end\nreturn M\n"
        }
    }

    static func project(_ random: inout Seeded) -> [UInt8] {
        var extras: [String] = []
        if Bool.random(using: &random) {
            let entries = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                resourceEntries.randomElement(using: &random)!
            }
            extras.append(#""resources": ["# + entries.joined(separator: ", ") + "]")
        }
        if Bool.random(using: &random) {
            let count = Int.random(in: 0...3_000, using: &random)
            extras.append(#""globals": ["# + (0..<count).map { "\"g\($0)_*\"" }.joined(separator: ", ") + "]")
        }
        var json = #"{"name": "App", "identifier": "com.example.app", "version": "1.0.0", "startModule": "main""#
        for extra in extras { json += ", " + extra }
        json += "}"
        var jsonBytes = Array(json.utf8)
        if Int.random(in: 0..<4, using: &random) == 0, !jsonBytes.isEmpty {
            jsonBytes[Int.random(in: 0..<jsonBytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        let rc = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            luacheckrcPieces.randomElement(using: &random)!.replacingOccurrences(
                of: "N", with: String(Int.random(in: 1...5_000_000, using: &random)))
        }.joined(separator: "\n")
        return jsonBytes + ProjectProbe.separator + Array(rc.utf8) + ProjectProbe.separator
            + Array(source(&random).utf8)
    }

    @Test func generatedProjectsValidateWithinTheirBounds() throws {
        var random = Seeded(state: 38)
        let iterations = Int(ProcessInfo.processInfo.environment["FLOWPKG_FUZZ_ITERATIONS"] ?? "") ?? 24
        for round in 0..<iterations {
            let bytes = Self.project(&random)
            let folder = try Self.scratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            let broken = ProjectProbe.project(bytes, in: folder)
            #expect(broken == [], "round \(round): \(String(decoding: bytes.prefix(300), as: UTF8.self))")
            if !broken.isEmpty { break }
        }
    }
}
