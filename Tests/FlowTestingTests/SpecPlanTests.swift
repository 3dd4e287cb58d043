import FlowTesting
import Foundation
import Testing

/// Which files and options a run takes: command line, flowpkg.json's `tests`, `.busted`.
@Suite struct SpecPlanTests {
    @Test func bustedFileSetsRootsPatternsPathsHelperAndTags() throws {
        let project = try SpecProject(files: [
            ".busted": """
            return {
              _all = { lpath = "./lib/?.lua" },
              default = { ROOT = { "checks" }, pattern = "^test_", helper = "checks/helper.lua",
                ["exclude-tags"] = "slow,net", tags = { "core" } },
              other = { ROOT = "spec" },
            }
            """,
            "checks/test_one.lua": "it('one #core', function() assert.are.equal(2, require('double')(1)) end)\n"
                + "it('two #core #slow', function() end)\nit('three', function() end)\n",
            "checks/one_spec.lua": "it('not taken', function() end)\n",
            "checks/helper.lua": "HELPED = true\n",
            "lib/double.lua": "return function(x) assert(HELPED) return 2 * x end\n",
            "spec/other_spec.lua": "it('other', function() end)\n",
            "spec/test_two.lua": "it('two', function() end)\n",
        ])
        defer { project.remove() }
        let plan = try SpecPlan.make(root: project.root.path, declaredFolders: [], request: SpecPlan.Request())
        #expect(plan.files == ["checks/test_one.lua"])
        #expect(plan.options.lpath == "./lib/?.lua")
        #expect(plan.options.helper == "checks/helper.lua")
        #expect(plan.options.excludeTags == ["slow", "net"])
        #expect(plan.options.tags == ["core"])
        var suite = try project.suite()
        suite.files = plan.files
        let report = TestRunner.run(suite, options: plan.options)
        #expect(report.records.map(\.name) == ["one #core"])
        #expect(report.succeeded, "\(report.records)")

        var request = SpecPlan.Request()
        request.task = "other"
        #expect(
            try SpecPlan.make(root: project.root.path, declaredFolders: [], request: request).files == [
                "spec/other_spec.lua"
            ])
        #expect(
            try SpecPlan.make(root: project.root.path, declaredFolders: ["spec"], request: SpecPlan.Request())
                .files == ["spec/test_two.lua"])
        request.paths = ["checks/one_spec.lua"]
        #expect(
            try SpecPlan.make(root: project.root.path, declaredFolders: [], request: request).files == [
                "checks/one_spec.lua"
            ])
    }

    @Test func aBustedFileThatLoopsIsStoppedWithAMessage() throws {
        let project = try SpecProject(files: [".busted": "while true do end\n"])
        defer { project.remove() }
        #expect {
            try SpecPlan.make(root: project.root.path, declaredFolders: [], request: SpecPlan.Request())
        } throws: { error in
            "\(error)".contains(".busted") && "\(error)".contains("runs too long")
        }
    }

    @Test func aMissingPathIsNamed() throws {
        let project = try SpecProject(files: ["spec/a_spec.lua": "it('a', function() end)\n"])
        defer { project.remove() }
        var request = SpecPlan.Request()
        request.paths = ["spec/nothing_spec.lua"]
        #expect(throws: TestSetupError.notFound(path: "spec/nothing_spec.lua")) {
            try SpecPlan.make(root: project.root.path, declaredFolders: [], request: request)
        }
    }
}
