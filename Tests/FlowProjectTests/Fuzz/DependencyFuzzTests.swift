import Foundation
import Testing

@testable import FlowDependencies

/// "A dependency file a pull request changes reads within its rules" (issue 43, Proof): the
/// committed corpora of hostile locks, rockspecs and library manifests
/// (`Tests/Fixtures/fuzz/lock|rockspec|library`) and seeded generated ones go through
/// `DependencyProbe`: a lock that reads has valid names and hashes and vendor targets inside
/// `vendor/NAME/`, a rockspec ends within the sandbox's budget, a library's dependencies lock
/// as a lock that reads, and every refusal has words. `FLOWPKG_FUZZ_ITERATIONS` lengthens the
/// seeded runs; the coverage-guided ones are `Tests/Fuzz/run lock|rockspec|library`.
@Suite struct DependencyFuzzTests {
    static func corpus(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fixtures/fuzz/\(kind)").standardizedFileURL
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0))))
        }
    }

    static func probe(_ kind: String, _ bytes: [UInt8]) throws -> [String] {
        let folder = try ProjectFuzzTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        switch kind {
        case "lock": return DependencyProbe.lock(bytes, in: folder)
        case "rockspec": return DependencyProbe.rockspec(bytes)
        default: return DependencyProbe.library(bytes, in: folder)
        }
    }

    @Test(arguments: ["lock", "rockspec", "library"])
    func everyCorpusFileReadsWithinItsRules(kind: String) throws {
        let inputs = try Self.corpus(kind)
        #expect(inputs.count >= 8)
        for (name, bytes) in inputs {
            #expect(try Self.probe(kind, bytes) == [], "\(kind)/\(name)")
        }
    }

    /// What a hostile pull request puts where a name, a path or a hash goes.
    static let hostileTexts = [
        "..", ".", "...", "../..", "a/../../b", "/etc/passwd", "", "a//b", "./a", "a/.", "x\\u0000y", "\\u00e9",
        "vendor", "../../../../../../tmp/x", String(repeating: "a", count: 300), "CON", "-rf", "a b", "~",
        String(repeating: "f", count: 64), String(repeating: "F", count: 64), String(repeating: "g", count: 64),
        "Sources/Main.lua", "a.lua/..", "%2e%2e", "..\\\\..",
    ]

    /// A corpus file with one hostile text put in place of one of its strings, or with one byte changed.
    static func mutated(_ bytes: [UInt8], _ random: inout ProjectFuzzTests.Seeded) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        let quotes = text.indices.filter { text[$0] == "\"" }
        if quotes.count >= 2, Int.random(in: 0..<4, using: &random) != 0 {
            let pair = Int.random(in: 0..<(quotes.count / 2), using: &random) * 2
            let start = text.index(after: quotes[pair])
            text.replaceSubrange(start..<quotes[pair + 1], with: hostileTexts.randomElement(using: &random)!)
            return Array(text.utf8)
        }
        var changed = bytes
        if !changed.isEmpty {
            changed[Int.random(in: 0..<changed.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        return changed
    }

    @Test(arguments: ["lock", "rockspec", "library"])
    func generatedFilesReadWithinTheirRules(kind: String) throws {
        let inputs = try Self.corpus(kind)
        var random = ProjectFuzzTests.Seeded(state: 43)
        let iterations = Int(ProcessInfo.processInfo.environment["FLOWPKG_FUZZ_ITERATIONS"] ?? "") ?? 40
        for round in 0..<iterations {
            let bytes = Self.mutated(inputs.randomElement(using: &random)!.bytes, &random)
            let broken = try Self.probe(kind, bytes)
            #expect(broken == [], "\(kind) round \(round): \(String(decoding: bytes.prefix(400), as: UTF8.self))")
            if !broken.isEmpty { break }
        }
    }
}

/// The probe's rules are not vacuous: what they guard against, handed to them directly, is caught.
@Suite struct DependencyProbeRuleTests {
    @Test func aDotNameOrAnEscapingPathIsCaught() throws {
        let sha = String(repeating: "a", count: 64)
        let module = LockedModule(name: "Sources.Main", path: "Sources/Main.lua", size: 3, sha256: sha)
        let dots = LockedDependency(
            kind: "package", name: "..", version: "1", origin: "x", sha256: sha, requested: nil, dependencies: [],
            modules: [module])
        let folder = try ProjectFuzzTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!DependencyProbe.vendorTargets(of: [dots], root: folder.path).isEmpty)
        let good = LockedDependency(
            kind: "rock", name: "inspect", version: "1", origin: "x", sha256: sha, requested: nil, dependencies: [],
            modules: [LockedModule(name: "inspect", path: "inspect.lua", size: 3, sha256: sha)])
        #expect(DependencyProbe.vendorTargets(of: [good], root: folder.path) == [])
    }
}
