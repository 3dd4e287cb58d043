import FlowTesting
import Foundation
import Testing

@Suite struct TestRunnerTests {
    @Test func outcomesOfOneFile() throws {
        let project = try SpecProject(files: [
            "spec/a_spec.lua": """
            describe("math", function()
              it("adds", function() assert.are.equal(2, 1 + 1) end)
              it("fails", function() assert.are.equal(3, 1 + 1) end)
              it("errs", function() error("boom") end)
              pending("later")
            end)
            """
        ])
        defer { project.remove() }
        let report = TestRunner.run(try project.suite(), options: TestOptions())
        #expect(report.records.map(\.status) == [.success, .failure, .error, .pending])
        #expect(report.records.map(\.name) == ["math adds", "math fails", "math errs", "math later"])
        #expect(report.records[1].message?.hasPrefix("spec/a_spec.lua:3: Expected objects to be equal.") == true)
        #expect(!report.succeeded)
    }
}
