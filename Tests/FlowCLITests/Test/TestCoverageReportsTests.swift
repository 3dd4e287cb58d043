import FlowTestSupport
import Foundation
import Testing

/// `flowpkg test --coverage` end to end: every report written, `.luacov`'s include and exclude
/// honoured, a broken `.luacov` refused with its name and the fix.
@Suite(.serialized) struct TestCoverageReportsTests {
    static let specs = [
        "Sources/calc.lua": "local calc = {}\nfunction calc.add(a, b)\n  return a + b\nend\nreturn calc\n",
        "Sources/extra/skipped.lua": "return { never = true }\n",
        "spec/calc_spec.lua": "it('adds', function() assert.are.equal(3, require('calc').add(1, 2)) end)\n",
    ]

    @Test func luacovExcludeLeavesModulesOutOfEveryReport() throws {
        let project = try TestCommandTests.Project(
            specs: Self.specs.merging([".luacov": "include = { 'calc$', 'extra/' }\nexclude = { 'extra/' }\n"]) {
                a, _ in a
            })
        defer { project.remove() }
        let result = try project.run(["test", "--coverage"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("coverage/cobertura.xml"), "\(result.stderr)")
        let folder = project.folder.appendingPathComponent("coverage")
        func text(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        #expect(try text("lcov.info").contains("SF:Sources/calc.lua\n"))
        #expect(try !text("lcov.info").contains("skipped"))
        #expect(try text("cobertura.xml").contains("filename=\"Sources/calc.lua\" line-rate=\"1.0000\""))
        #expect(try !text("cobertura.xml").contains("skipped"))
        #expect(try text("index.html").contains("Sources/calc.lua"))
        #expect(try text("Sources/calc.lua.html").contains("<tr class=\"hit\" id=\"L3\">"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources/extra").path))
        #expect(result.stderr.contains("coverage: 100.00% of lines"))
    }

    @Test func withoutLuacovEveryOwnModuleIsCounted() throws {
        let project = try TestCommandTests.Project(specs: Self.specs)
        defer { project.remove() }
        let result = try project.run(["test", "--coverage", "--coverage-min", "90"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: coverage 61.76% is below --coverage-min 90"), "\(result.stderr)")
        let lcov = try String(
            contentsOf: project.folder.appendingPathComponent("coverage/lcov.info"), encoding: .utf8)
        #expect(lcov.contains("SF:Sources/extra/skipped.lua\nDA:1,0\n"), "\(lcov)")
    }

    @Test func aBrokenLuacovIsRefusedByName() throws {
        let project = try TestCommandTests.Project(
            specs: Self.specs.merging([".luacov": "include = 'Sources'\n"]) { a, _ in a })
        defer { project.remove() }
        let result = try project.run(["test", "--coverage"])
        #expect(result.status == 1)
        #expect(result.stderr.contains(".luacov: cannot be used: 'include' must be a list of Lua patterns"))
        #expect(!FileManager.default.fileExists(atPath: project.folder.appendingPathComponent("coverage").path))
    }
}
