import FlowTestSupport
import Foundation
import Testing

/// FlowpkgBuildTool, what FlowpkgBuildPlugin runs: the same package bytes as `flowpkg export`,
/// the same diagnostics as `flowpkg validate --absolute-paths`, and silence when all is well.
@Suite struct BuildToolTests {
    static let tool = FlowpkgProcess.executable(named: "FlowpkgBuildTool")
    static let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]

    /// The Lua project Samples/HostApp embeds through the plugin, and a copy of it.
    static func sampleProject(in fixture: RunFixture) throws -> URL {
        let sample = CLITestFolder.url
            .appendingPathComponent("../../Samples/HostApp/Sources/HostApp/Lua").standardizedFileURL
        let copy = fixture.url.appendingPathComponent("Lua")
        try FileManager.default.copyItem(at: sample, to: copy)
        return copy
    }

    @Test func writesTheBytesFlowpkgExportWritesAndPrintsNothing() throws {
        let fixture = try RunFixture()
        let project = try Self.sampleProject(in: fixture)
        let fromTool = fixture.url.appendingPathComponent("tool/Lua.luapkg")
        let fromCLI = fixture.url.appendingPathComponent("cli/Lua.luapkg")
        for folder in ["tool", "cli"] {
            try FileManager.default.createDirectory(
                at: fixture.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }

        let built = try FlowpkgProcess.run(
            [project.path, fromTool.path], in: fixture.url, environment: Self.epoch, executable: Self.tool)
        #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
        #expect(
            built.stdout.isEmpty && built.stderr.isEmpty, "a clean project printed:\n\(built.stdout)\(built.stderr)")

        let exported = try FlowpkgProcess.run(
            ["export", project.path, "-o", fromCLI.path, "--absolute-paths"], in: fixture.url, environment: Self.epoch)
        #expect(exported.status == 0, "\(exported.stdout)\(exported.stderr)")

        let toolBytes = try Data(contentsOf: fromTool), cliBytes = try Data(contentsOf: fromCLI)
        #expect(toolBytes.count > 0)
        #expect(toolBytes == cliBytes, "FlowpkgBuildTool's package differs from flowpkg export's")
        // And it is a package flowpkg itself accepts whole.
        let verified = try FlowpkgProcess.run(["verify", fromTool.path], in: fixture.url)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    @Test func reportsABrokenProjectAsValidateDoesAndWritesNothing() throws {
        let fixture = try RunFixture()
        let project = try fixture.project(
            "Broken",
            modules: [
                "main.lua": "local words = require 'words'\nprint(words.motto)\nlocal broken = = 1\n",
                "words.lua": "return { motto = getResource('missing', 'txt') }\n",
                "Bad-Name.lua": "return 1\n",
            ])
        let output = fixture.url.appendingPathComponent("Broken.luapkg")

        let built = try FlowpkgProcess.run([project.path, output.path], in: fixture.url, executable: Self.tool)
        #expect(built.status == 1)
        #expect(!FileManager.default.fileExists(atPath: output.path))

        let validated = try FlowpkgProcess.run(["validate", project.path, "--absolute-paths"], in: fixture.url)
        #expect(validated.status == 1)
        // validate's output without its summary line: the diagnostics alone.
        var expected = validated.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        expected.removeLast(2)
        let expectedText = expected.joined(separator: "\n") + "\n"
        #expect(built.stdout == expectedText)
        let module = project.appendingPathComponent("Sources/main.lua").standardizedFileURL.path
        #expect(built.stdout.contains("\(module):3:16: error: "), "\(built.stdout)")
        #expect(built.stdout.split(separator: "\n").count >= 2, "expected several problems:\n\(built.stdout)")
        #expect(built.stderr.isEmpty, "\(built.stderr)")
    }

    @Test func refusesOtherArgumentsAsAUsageError() throws {
        let result = try FlowpkgProcess.run(["only-one"], executable: Self.tool)
        #expect(result.status == 64)
        #expect(result.stderr.contains("usage: FlowpkgBuildTool"))
    }
}
