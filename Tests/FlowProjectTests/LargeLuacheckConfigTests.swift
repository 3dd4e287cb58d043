import FlowDiagnostics
import FlowTestSupport
import Foundation
import Testing

@testable import FlowProject

/// A `.luacheckrc` of many globals (issue 43, left from round 2): validation evaluates it once,
/// not once for its diagnostics and again for the lint options, and its misspelt reads still
/// get the exact "did you mean". Counted, never timed (Benchmarks/README.md has the times).
@Suite struct LargeLuacheckConfigTests {
    static func project(globals: Int) throws -> Scratch {
        let scratch = try Scratch("large-luacheckrc")
        try scratch.file(
            "flowpkg.json",
            """
            {"name": "big", "identifier": "com.example.big", "version": "0.1.0", "startModule": "main",
             "sources": ["Sources"], "resources": [], "environment": "lua"}
            """)
        try scratch.file(
            ".luacheckrc",
            """
            local g = {}
            for i = 0, \(globals - 1) do g[#g + 1] = string.format("name_%06d", i) end
            globals = g
            files["Sources/other.lua"] = { globals = { "other_only" } }
            """)
        try scratch.file("Sources/main.lua", "print(nmae_000007)\nprint(name_000008)\nprint(other_only)\n")
        try scratch.file("Sources/other.lua", "print(other_only)\nprint(name_00001)\n")
        return scratch
    }

    @Test func theConfigurationIsEvaluatedOnceAndItsNamesHint() throws {
        let scratch = try Self.project(globals: 50_000)
        defer { scratch.remove() }
        let report = Validator.validate(projectAt: scratch.url)
        let rc = scratch.path(".luacheckrc").path
        #expect(LuacheckConfig.evaluations.withLock { $0[rc] } == 1)
        let undefined = report.diagnostics.filter { $0.code == .undefinedGlobal }
        // other_only is defined in other.lua alone, by its `files[...]` section.
        #expect(
            undefined.map { $0.place(relativeTo: scratch.url) } == [
                "Sources/main.lua:1:7", "Sources/main.lua:3:7", "Sources/other.lua:2:7",
            ], "\(report.diagnostics)")
        #expect(undefined.first?.hint == "did you mean 'name_000007'?")
        #expect(undefined.last?.hint == "did you mean 'name_000001'?")
    }

    /// Files that match the same sections share one making of their options; a spec file or a
    /// file a section names gets its own.
    @Test func filesWithTheSameSectionsShareTheirOptions() throws {
        let scratch = try Self.project(globals: 10)
        defer { scratch.remove() }
        let lint = LintConfiguration.load(inProject: scratch.url, specFile: { $0.hasPrefix("spec/") })
        let main = lint.optionsKey(forFile: scratch.path("Sources/main.lua").path)
        #expect(main == lint.topKey)
        #expect(lint.optionsKey(forFile: scratch.path("Sources/third.lua").path) == main)
        #expect(lint.optionsKey(forFile: scratch.path("Sources/other.lua").path) != main)
        #expect(lint.optionsKey(forFile: scratch.path("spec/a_spec.lua").path) != main)
        #expect(lint.options(forFile: scratch.path("Sources/third.lua").path) == lint.topOptions)
        #expect(lint.options(forFile: scratch.path("Sources/other.lua").path).globals.contains("other_only"))
    }

    /// A refused or broken configuration is still reported once, from the one evaluation.
    @Test func aBrokenConfigurationIsReportedOnce() throws {
        let scratch = try Self.project(globals: 1)
        defer { scratch.remove() }
        try scratch.file(".luacheckrc", "globals = {\n")
        let report = Validator.validate(projectAt: scratch.url)
        let warnings = report.diagnostics.filter { $0.code == .invalidValue }
        #expect(warnings.count == 1, "\(report.diagnostics)")
        #expect(warnings.first?.file == scratch.path(".luacheckrc").path)
    }
}
