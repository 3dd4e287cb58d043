import Testing

@testable import FlowAnalysis

/// Globs and "did you mean" against hostile sizes (issue 38): the work is counted, never timed.
@Suite struct HostileNamesTests {
    /// A seeded generator, so a failure can be replayed.
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

    static func word(_ random: inout Seeded, letters: String = "abc_", length: ClosedRange<Int> = 0...4) -> String {
        String((0..<Int.random(in: length, using: &random)).map { _ in letters.randomElement(using: &random)! })
    }

    /// The index answers as the plain matcher does, on globs with starts, ends and middles.
    @Test func theIndexAgreesWithThePlainMatcher() {
        var random = Seeded(state: 38)
        for _ in 0..<50 {
            var index = GlobIndex()
            var patterns: [String] = []
            for _ in 0..<Int.random(in: 1...30, using: &random) {
                let parts = (0...Int.random(in: 1...3, using: &random)).map { _ in Self.word(&random) }
                let pattern = parts.joined(separator: "*")
                patterns.append(pattern)
                index.insert(pattern)
            }
            for _ in 0..<200 {
                let name = Self.word(&random, length: 0...9)
                let expected = patterns.contains { Environment.glob($0, matches: name) }
                #expect(index.matches(name) == expected, "\(name) against \(patterns)")
            }
        }
    }

    /// 20,000 globs and 2,000 undefined reads took 17 s, each read trying every glob: now a
    /// read's work depends on its length, not on how many globs there are.
    @Test func aReadCostsTheSameWhateverTheNumberOfGlobs() {
        var globs: [String] = []
        for index in 0..<20_000 { globs.append("host\(index)_*") }
        for index in 0..<20_000 { globs.append("*_cfg\(index)") }
        let environment = Environment.lua.extended(globals: globs, externalModules: [])
        #expect(environment.defines(global: "host19999_anything"))
        #expect(environment.defines(global: "x_cfg7"))
        #expect(!environment.defines(global: "undefinedName"))
        var index = GlobIndex()
        for glob in globs { index.insert(glob) }
        for read in 0..<2_000 {
            let (matches, work) = index.match("undefined_read_\(read)")
            #expect(!matches)
            // At most one look-up per start and end length present (up to the name's length).
            #expect(work <= 25 * 25, "\(work)")
        }
    }

    /// One start and end shared by a million globs with middles: the bucket is capped.
    @Test func globsOfOneStartAndEndAreCapped() {
        var index = GlobIndex()
        for middle in 0..<100_000 { index.insert("a*m\(middle)*b") }
        let (matches, work) = index.match("a_no_middle_here_b")
        #expect(!matches)
        #expect(work <= GlobIndex.maximumPerKey + 400, "\(work)")
    }

    /// 500,000 names and 200 reads took 26 s in "did you mean": the comparisons are capped, per
    /// word and in all (small caps here, so the test itself stays quick).
    @Test func suggestionsStopAtTheirBudget() {
        var random = Seeded(state: 500)
        var names: [String] = []
        for _ in 0..<50_000 { names.append(Self.word(&random, letters: "abcdefgh", length: 6...8)) }
        var suggestions = Suggestions(names, maximumComparisons: 30_000, maximumPerWord: 2_000)
        for read in 0..<200 {
            let before = suggestions.remainingComparisons
            _ = suggestions.closest(to: "zz\(read % 10)zzzz\(read / 10)")
            #expect(before - suggestions.remainingComparisons <= 2_000)
        }
        #expect(suggestions.remainingComparisons == 0)
        #expect(Suggestions.maximumComparisons <= 1_000_000)
        // Still a good answer within the budget.
        var small = Suggestions(["print", "pairs", "require"])
        #expect(small.closest(to: "pirnt") == "print")
    }
}
