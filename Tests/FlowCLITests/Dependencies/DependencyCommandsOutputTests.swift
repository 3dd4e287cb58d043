import FlowTestSupport
import Foundation
import Testing

/// The dependency commands as a script or CI sees them: `--format json` reports, `--help` on
/// each, and usage errors (exit 64). Path dependencies only, so no luarocks runs.
@Suite struct DependencyCommandsOutputTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func lockReportsInJSONAndACycleFailsThere() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let kit = scratch.url.appendingPathComponent("kit")
        let app = scratch.url.appendingPathComponent("app")
        try write(
            #"{"name": "kit", "identifier": "com.example.kit", "version": "0.3.0", "resources": []}"#,
            to: kit.appendingPathComponent("flowpkg.json"))
        try write("return {}\n", to: kit.appendingPathComponent("Sources/Kit.lua"))
        try write(
            #"{"name": "app", "identifier": "com.example.app", "version": "1.0.0", "startModule": "Main", "resources": [], "dependencies": {"kit": {"path": "../kit"}}}"#,
            to: app.appendingPathComponent("flowpkg.json"))
        try write("require 'Kit'\n", to: app.appendingPathComponent("Sources/Main.lua"))

        var result = try FlowpkgProcess.run(["lock", "--format", "json"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        var report = try object(result.stdout)
        #expect(report["succeeded"] as? Bool == true)
        #expect((report["changes"] as? [String])?.contains("+ kit 0.3.0 (path, 1 module)") == true, "\(report)")
        let entries = report["dependencies"] as? [[String: Any]] ?? []
        #expect(entries.count == 1)
        #expect(entries.first?["name"] as? String == "kit" && entries.first?["modules"] as? Int == 1)

        // kit depends back on the app: exit 1, the diagnostic in the report, nothing on stdout but it.
        try write(
            #"{"name": "kit", "identifier": "com.example.kit", "version": "0.3.0", "resources": [], "dependencies": {"app": {"path": "../app"}}}"#,
            to: kit.appendingPathComponent("flowpkg.json"))
        let lockBefore = try Data(contentsOf: app.appendingPathComponent("flowpkg.lock"))
        result = try FlowpkgProcess.run(["lock", "--format", "json"], in: app)
        #expect(result.status == 1)
        report = try object(result.stdout)
        #expect(report["succeeded"] as? Bool == false)
        let diagnostic = try #require((report["diagnostics"] as? [[String: Any]])?.first, "\(report)")
        #expect(diagnostic["code"] as? String == "FP815")
        #expect((diagnostic["message"] as? String)?.contains("app -> kit -> app") == true, "\(diagnostic)")
        #expect(try Data(contentsOf: app.appendingPathComponent("flowpkg.lock")) == lockBefore)
    }

    @Test func eachCommandHasHelpAndRefusesBadUsage() throws {
        for command in ["add", "remove", "update", "lock", "vendor"] {
            let help = try FlowpkgProcess.run([command, "--help"])
            #expect(help.status == 0, "\(command)")
            #expect(help.stdout.contains("USAGE: flowpkg \(command)"), "\(command): \(help.stdout)")
        }
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        for arguments in [
            ["add"], ["add", "inspect", "--path", "../x"], ["remove"], ["add", "--path", "a", "--package", "b"],
        ] {
            let result = try FlowpkgProcess.run(arguments, in: scratch.url)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("error:"), "\(arguments)")
        }
    }
}
