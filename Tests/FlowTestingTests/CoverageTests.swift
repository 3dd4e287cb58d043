import FlowTesting
import Foundation
import Testing

/// `--coverage` on the features fixture: the hits of src/calc.lua's lines against luacov's
/// (lunarmodules/luacov under `lua5.4 -lluacov /usr/bin/busted spec/features_spec.lua`, its
/// luacov.stats.out: line 2: 1, 4: 1, 5: 2, 6: 1, 9: 1, 14: 1, 16: 1; lines 10, 11 and 13
/// missed; see Benchmarks/README.md, coverage).
@Suite struct CoverageTests {
    static let luacovHits = [2: 1, 4: 1, 5: 2, 6: 1, 9: 1, 14: 1, 16: 1]
    static let luacovMissed = [10, 11, 13]

    @Test func lineHitsEqualLuacovs() throws {
        let project = try SpecProject(copying: BustedParityTests.fixtures.appendingPathComponent("features"))
        defer { project.remove() }
        var suite = try project.suite()
        suite.files = ["spec/features_spec.lua"]
        var options = TestOptions()
        options.coverage = true
        options.coverageFiles = ["src/calc.lua"]
        let report = TestRunner.run(suite, options: options)
        let coverage = CoverageReport.make(
            root: project.root.path, modules: ["src/calc.lua"], lineHits: report.lineHits)
        let file = try #require(coverage.files.first)
        for (line, hits) in Self.luacovHits { #expect(file.hits[line] == hits, "line \(line)") }
        for line in Self.luacovMissed {
            #expect(file.executableLines.contains(line) && file.hits[line] == nil, "line \(line)")
        }
        // Lua 5.4's active lines: luacov's, and the two `end`s that store each function.
        #expect(file.executableLines == [2, 4, 5, 6, 9, 10, 11, 13, 14, 16])
        #expect(coverage.lcov.contains("SF:src/calc.lua\nDA:2,1\nDA:4,1\nDA:5,2\n"))
        #expect(coverage.lcov.contains("LF:10\nLH:7\nend_of_record\n"))
        #expect(coverage.luacov.contains(" ****0   if b == 0 then\n"))
        #expect(coverage.percent == 70)
    }

    @Test func withoutCoverageNothingIsCounted() throws {
        let project = try SpecProject(copying: BustedParityTests.fixtures.appendingPathComponent("features"))
        defer { project.remove() }
        var suite = try project.suite()
        suite.files = ["spec/features_spec.lua"]
        #expect(TestRunner.run(suite, options: TestOptions()).lineHits.isEmpty)
    }
}
