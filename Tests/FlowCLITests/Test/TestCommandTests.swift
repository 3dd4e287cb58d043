import FlowTestSupport
import Foundation
import Testing

/// `flowpkg test` as a user runs it: a project made by `flowpkg new`, luassert added with
/// `flowpkg add --dev` from a local rocks server, specs in spec/.
@Suite(.serialized) struct TestCommandTests {
    /// A new console-app project with luassert as a dev dependency, and `specs` written in it.
    struct Project {
        let scratch: Scratch
        let folder: URL
        let cache: URL

        init(specs: [String: String], addAssertions: Bool = true) throws {
            scratch = try Scratch("cli")
            cache = scratch.url.appendingPathComponent("cache")
            folder = scratch.url.appendingPathComponent("app")
            let made = try FlowpkgProcess.run(["new", "app", "--template", "console-app"], in: scratch.url)
            #expect(made.status == 0, "\(made.stderr)")
            // The template's own spec is left out: these tests count and list only the specs they write.
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("spec/Banner_spec.lua"))
            if addAssertions {
                let server = try LocalRocksServer(in: scratch.url)
                try server.publishAssertions()
                let added = try run(["add", "--dev", "luassert", "--rocks-server", server.folder.path])
                #expect(added.status == 0, "\(added.stderr)")
            }
            for (path, text) in specs {
                let file = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }

        func run(_ arguments: [String]) throws -> FlowpkgProcess.Result {
            try FlowpkgProcess.run(arguments, in: folder, environment: ["FLOWPKG_CACHE": cache.path])
        }

        func remove() { scratch.remove() }
    }

    static let passing = "describe('app', function() it('works', function() assert.is_true(true) end) end)\n"

    @Test func passingSpecsExitZeroAndCountThem() throws {
        let project = try Project(specs: ["spec/app_spec.lua": Self.passing])
        defer { project.remove() }
        let result = try project.run(["test"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 success / 0 failures / 0 errors / 0 pending"))
    }

    @Test func aMissingLuassertNamesTheCommandThatAddsIt() throws {
        let project = try Project(specs: ["spec/app_spec.lua": Self.passing], addAssertions: false)
        defer { project.remove() }
        let result = try project.run(["test"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("add it with: flowpkg add --dev luassert"))
        #expect(result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("error:") }.count == 1)
    }

    @Test func aSyntaxErrorIsReportedWithItsColumnAndTheOtherFilesRun() throws {
        let project = try Project(specs: [
            "spec/app_spec.lua": Self.passing,
            "spec/broken_spec.lua": "describe('x', function()\n  local a = )\nend)\n",
        ])
        defer { project.remove() }
        let result = try project.run(["test"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("spec/broken_spec.lua:2:13: unexpected symbol near ')'"))
        #expect(result.stdout.contains("1 success / 0 failures / 1 error"))
    }

    @Test func osExitAndATimeoutAreReportedAndTheOthersGoOn() throws {
        let project = try Project(specs: [
            "spec/app_spec.lua": Self.passing,
            "spec/exit_spec.lua": "it('leaves', function() os.exit(3) end)\nit('never runs', function() end)\n",
            "spec/loop_spec.lua":
                "describe('a loop', function() it('never ends', function() while true do end end) end)\n",
        ])
        defer { project.remove() }
        let result = try project.run(["test", "--timeout", "1"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Error → spec/exit_spec.lua:1: leaves"))
        #expect(result.stdout.contains("os.exit(3) called"))
        #expect(result.stdout.contains("Error → spec/loop_spec.lua:1: a loop never ends"))
        #expect(result.stdout.contains("timed out after 1.0 s"))
        #expect(result.stdout.contains("1 success / 0 failures / 2 errors"))
    }

    @Test func listFilterTagsAndShards() throws {
        let spec = """
            describe('calc', function()
              it('adds #fast', function() end)
              it('divides #slow', function() end)
              it('subtracts', function() end)
            end)
            """
        let project = try Project(specs: ["spec/a_spec.lua": spec, "spec/b_spec.lua": Self.passing])
        defer { project.remove() }
        let listed = try project.run(["test", "--list"])
        #expect(
            listed.stdout == "spec/a_spec.lua:2: calc adds #fast\nspec/a_spec.lua:3: calc divides #slow\n"
                + "spec/a_spec.lua:4: calc subtracts\nspec/b_spec.lua:1: app works\n")
        let tagged = try project.run(["test", "--list", "--tags", "fast", "spec/a_spec.lua"])
        #expect(tagged.stdout == "spec/a_spec.lua:2: calc adds #fast\n")
        let excluded = try project.run(["test", "--list", "--exclude-tags", "slow,fast", "--filter", "calc"])
        #expect(excluded.stdout == "spec/a_spec.lua:4: calc subtracts\n")
        let first = try project.run(["test", "--list", "--shard", "1/2"])
        let second = try project.run(["test", "--list", "--shard", "2/2"])
        #expect(first.stdout.hasPrefix("spec/a_spec.lua") && second.stdout == "spec/b_spec.lua:1: app works\n")
        #expect(try project.run(["test", "--shard", "3/2"]).status == 64)
    }

    @Test func specsAndDevDependenciesAreValidatedButNeverPackaged() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("lib")
        let cache = scratch.url.appendingPathComponent("cache")
        let files = [
            "lib.lua": "return { double = function(x) return 2 * x end }\n",
            "spec/support.lua": "return { seven = 7 }\n",
            "spec/lib_spec.lua": """
            local lib = require("lib")
            describe("lib", function()
              it("doubles", function() assert.are.equal(14, lib.double(require("spec.support").seven)) end)
            end)
            """,
        ]
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        func run(_ arguments: [String]) throws -> FlowpkgProcess.Result {
            try FlowpkgProcess.run(arguments, in: folder, environment: ["FLOWPKG_CACHE": cache.path])
        }
        #expect(try run(["init", "."]).status == 0)
        let server = try LocalRocksServer(in: scratch.url)
        try server.publishAssertions()
        #expect(try run(["add", "--dev", "luassert", "--rocks-server", server.folder.path]).status == 0)
        let validated = try run(["validate", "."])
        #expect(validated.status == 0, "\(validated.stdout)")
        #expect(!validated.stdout.contains("FP405"), "\(validated.stdout)")
        let exported = try run(["export", ".", "-o", "lib.luapkg"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let listed = try run(["inspect", "lib.luapkg", "--format", "json"])
        // lib.lua alone: not spec/lib_spec.lua, spec/support.lua, luassert's 28 or say's.
        let summary = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        #expect((summary?["modules"] as? [String: Any])?["count"] as? Int == 1, "\(listed.stdout)")
        let tested = try run(["test"])
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
    }

    @Test func coverageWritesItsReportsAndCoverageMinFails() throws {
        let project = try Project(specs: [
            "Sources/calc.lua": "local calc = {}\nfunction calc.add(a, b)\n  return a + b\nend\nreturn calc\n",
            "spec/calc_spec.lua": "it('adds', function() assert.are.equal(3, require('calc').add(1, 2)) end)\n",
        ])
        defer { project.remove() }
        let result = try project.run(["test", "--coverage", "--coverage-dir", "out"])
        #expect(result.status == 0, "\(result.stderr)")
        let lcov = try String(contentsOf: project.folder.appendingPathComponent("out/lcov.info"), encoding: .utf8)
        #expect(lcov.contains("SF:Sources/calc.lua\nDA:1,1\nDA:2,1\nDA:3,1\nDA:4,1\nDA:5,1\nLF:5\nLH:5\n"), "\(lcov)")
        #expect(!lcov.contains("spec/"))
        let luacov = try String(
            contentsOf: project.folder.appendingPathComponent("out/luacov.report.out"), encoding: .utf8)
        #expect(luacov.contains("Summary"))
        let strict = try project.run(["test", "--coverage", "--coverage-min", "100"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("is below --coverage-min 100"))
        #expect(
            FileManager.default.fileExists(atPath: project.folder.appendingPathComponent("coverage/lcov.info").path))
    }

    @Test func junitIsReadByJunitparser() throws {
        let spec = """
            describe('suite', function()
              it('passes', function() end)
              it('fails', function() assert.are.equal(1, 2) end)
              it('errs <&>', function() error('boom') end)
              pending('later')
            end)
            describe('broken', function() error('in describe') end)
            """
        let project = try Project(specs: ["spec/a_spec.lua": spec])
        defer { project.remove() }
        let result = try project.run(["test", "--format", "junit"])
        #expect(result.status == 1)
        let report = project.folder.appendingPathComponent("report.xml")
        try Data(result.stdout.utf8).write(to: report)
        let script = CLITestFolder.url.appendingPathComponent("Scripts/junit_summary.py")
        let read = try FlowpkgProcess.run(
            ["python3", script.path, report.path], executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(read.status == 0, "\(read.stderr)")
        #expect(
            read.stdout == """
                passed\tspec/a_spec.lua:2\tsuite passes
                failure\tspec/a_spec.lua:3\tsuite fails
                error\tspec/a_spec.lua:4\tsuite errs <&>
                skipped\tspec/a_spec.lua:5\tsuite later
                error\tspec/a_spec.lua:7\tbroken
                total\t5\t1\t2\t1

                """)
    }
}
