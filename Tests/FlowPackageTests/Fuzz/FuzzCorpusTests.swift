import FlowTestSupport
import Foundation
import Testing

@testable import FlowPackage

/// "No input crashes a reader" as a property every test run checks, in seconds: every input
/// of the committed corpus (`Tests/Fixtures/fuzz`: what fuzzing found interesting) and a few
/// thousand seeded mutations of it go through every manifest and package reader
/// (`ReaderProbe`), each giving a value or an error in words.
///
/// A longer campaign that grows the corpus: `FLOWPKG_FUZZ_ITERATIONS=200000
/// FLOWPKG_FUZZ_CORPUS=Tests/Fixtures/fuzz swift test --filter FuzzCorpusTests/campaign`
/// (it keeps each input whose outcome is new); the coverage-guided one is `Tests/Fuzz/run`.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/fuzz").standardizedFileURL

    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    static func inputs(_ kind: String) throws -> [(name: String, bytes: [UInt8])] {
        let folder = corpus.appendingPathComponent(kind)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, Array(try Data(contentsOf: folder.appendingPathComponent($0))))
        }
    }

    /// Packages the writer makes now: small, one of them signed.
    func seedPackages() throws -> [[UInt8]] {
        let project = try SampleProject(scratch, mediaSize: 300)
        var signed = PackageWriteOptions()
        signed.signingKey = PackageSigningKey()
        return [
            Array(try Data(contentsOf: try project.write(to: "seed.luapkg"))),
            Array(try Data(contentsOf: try project.write(to: "signed.luapkg", options: signed))),
        ]
    }

    private func probePackage(_ bytes: [UInt8], _ name: String) throws -> [String] {
        let path = scratch.path(name)
        try Data(bytes).write(to: path)
        return ReaderProbe.package(at: path)
    }

    @Test func theCorpusIsThere() throws {
        #expect(try Self.inputs("manifest").count >= 20)
        #expect(try Self.inputs("package").count >= 20)
    }

    @Test func everyCorpusManifestGivesAValueOrWords() throws {
        for (name, bytes) in try Self.inputs("manifest") {
            #expect(ReaderProbe.manifest(bytes) == [], "\(name)")
        }
    }

    @Test func everyCorpusPackageGivesAValueOrWords() throws {
        for (name, bytes) in try Self.inputs("package") {
            #expect(try probePackage(bytes, "corpus.luapkg") == [], "\(name)")
        }
    }

    @Test func seededManifestMutationsGiveAValueOrWords() throws {
        var seeds = try Self.inputs("manifest").map(\.bytes)
        seeds.append(try PackageReader(contentsOf: try SampleProject(scratch).write()).manifestBytes)
        var mutator = Mutator(seed: 28)
        for round in 0..<4000 {
            let input = mutator.mutate(seeds[mutator.below(seeds.count)], zip: false)
            let broken = ReaderProbe.manifest(input)
            #expect(broken == [], "mutation \(round): \(String(decoding: input, as: UTF8.self))")
            if !broken.isEmpty { break }
        }
    }

    @Test func seededPackageMutationsGiveAValueOrWords() throws {
        let seeds = try Self.inputs("package").map(\.bytes) + seedPackages()
        var mutator = Mutator(seed: 2028)
        for round in 0..<1000 {
            let input = mutator.mutate(seeds[mutator.below(seeds.count)], zip: true)
            let broken = try probePackage(input, "mutant.luapkg")
            if !broken.isEmpty {
                try Data(input).write(to: scratch.path("failing-\(round).luapkg"))
                Issue.record("mutation \(round) (kept at \(scratch.path("failing-\(round).luapkg").path)): \(broken)")
                break
            }
        }
    }

    /// Runs only when `FLOWPKG_FUZZ_ITERATIONS` is set: a longer seeded campaign that writes
    /// each input whose outcome (its errors with numbers masked) was not seen before into
    /// `FLOWPKG_FUZZ_CORPUS` (`manifest/` and `package/`).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FLOWPKG_FUZZ_ITERATIONS"] != nil))
    func campaign() throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = Int(environment["FLOWPKG_FUZZ_ITERATIONS"] ?? "") ?? 0
        let output = environment["FLOWPKG_FUZZ_CORPUS"].map { URL(fileURLWithPath: $0) }
        var seen: Set<String> = []
        var mutator = Mutator(seed: UInt64(environment["FLOWPKG_FUZZ_SEED"] ?? "") ?? 1)
        let manifests = (try? Self.inputs("manifest").map(\.bytes)) ?? []
        var manifestSeeds =
            manifests + [try PackageReader(contentsOf: try SampleProject(scratch).write()).manifestBytes]
        var packageSeeds = ((try? Self.inputs("package").map(\.bytes)) ?? []) + (try seedPackages())
        for round in 0..<iterations {
            let isZip = round % 3 != 0
            let seeds = isZip ? packageSeeds : manifestSeeds
            let input = mutator.mutate(seeds[mutator.below(seeds.count)], zip: isZip)
            let broken = isZip ? try probePackage(input, "campaign.luapkg") : ReaderProbe.manifest(input)
            #expect(broken == [], "round \(round)")
            let outcome = (isZip ? "p:" : "m:") + Self.outcome(input, isZip: isZip, scratch: scratch)
            guard seen.insert(outcome).inserted, input.count <= 8192, let output else { continue }
            let kind = isZip ? "package" : "manifest"
            // Named by the input's FNV-1a hash: the same input, the same file.
            let hash = input.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            let name = String(hash, radix: 16) + (isZip ? ".luapkg" : ".json")
            let folder = output.appendingPathComponent(kind)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(input).write(to: folder.appendingPathComponent(name))
            if isZip { packageSeeds.append(input) } else { manifestSeeds.append(input) }
        }
    }

    /// What the readers made of an input, roughly: a stand-in for coverage.
    static func outcome(_ input: [UInt8], isZip: Bool, scratch: Scratch) -> String {
        var words: [String]
        if isZip {
            words = PackageReader.verify(at: scratch.path("campaign.luapkg")).map(\.message)
        } else {
            do {
                _ = try Manifest.decodeChecked(input, packagePath: "m", limits: .default)
                words = [CanonicalManifest(input) == nil ? "parsed" : "canonical"]
            } catch {
                words = error.problems.map(\.message)
            }
        }
        // The first four words of each distinct message: which check spoke, not about what.
        let kinds = Set(words.map { $0.split(separator: " ").prefix(4).joined(separator: " ") })
        return kinds.sorted().joined(separator: "|").map { $0.isNumber ? "#" : String($0) }.joined()
    }
}
