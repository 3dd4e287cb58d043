import FlowTestSupport
import Foundation
import Testing

/// `flowpkg dev`'s `t` key, as a developer types it: on a real pseudo-terminal (Python's `pty`,
/// driven by `Scripts/dev_test_key.py`), the project's specs run in the program dev started,
/// their results in the terminal and on the session page.
@Suite(.serialized) struct DevTestKeyTests {
    @Test func tAndEnterRunsTheSpecsInTheRunningProgram() throws {
        let project = try TestCommandTests.Project(specs: [
            "spec/app_spec.lua": """
            describe('app', function()
              it('passes', function() assert.is_true(true) end)
              it('fails', function() assert.are.equal(1, 2) end)
            end)
            """
        ])
        defer { project.remove() }
        let script = CLITestFolder.url.appendingPathComponent("Scripts/dev_test_key.py")
        let result = try FlowpkgProcess.run(
            ["python3", script.path, FlowpkgProcess.executable.path, project.folder.path],
            in: project.folder, environment: ["FLOWPKG_CACHE": project.cache.path],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("ok\n"), "\(result.stdout)\(result.stderr)")
    }
}
