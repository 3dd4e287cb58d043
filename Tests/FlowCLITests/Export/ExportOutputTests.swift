import FlowTestSupport
import Foundation
import Testing

/// What export prints (issue 46): warnings counted in one line (listed with --verbose), and
/// `-o` into a folder that does not exist yet.
@Suite struct ExportOutputTests {
    func makeProject(in scratch: Scratch) throws -> URL {
        let project = scratch.url.appendingPathComponent("app")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data(
            #"{"name": "app", "identifier": "com.example.app", "version": "1.0.0", "startModule": "main"}"#.utf8
        ).write(to: project.appendingPathComponent("flowpkg.json"))
        try Data("local unused = 1\nlocal other = 2\nprint('hi')\n".utf8).write(
            to: project.appendingPathComponent("Sources/main.lua"))
        return project
    }

    @Test func warningsAreCountedInOneLineAndListedWithVerbose() throws {
        let scratch = try Scratch("export-output")
        defer { scratch.remove() }
        let project = try makeProject(in: scratch)
        var result = try FlowpkgProcess.run(["export", "-o", "../app.luapkg"], in: project)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 warnings not listed"), "\(result.stdout)")
        #expect(!result.stdout.contains("main.lua:1:"), "\(result.stdout)")

        result = try FlowpkgProcess.run(["export", "--verbose", "-o", "../app.luapkg"], in: project)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("main.lua:1:7: warning:"), "\(result.stdout)")
        #expect(result.stdout.contains("main.lua:2:7: warning:"), "\(result.stdout)")
        #expect(!result.stdout.contains("not listed"), "\(result.stdout)")
    }

    @Test func anOutputFolderThatDoesNotExistYetIsMade() throws {
        let scratch = try Scratch("export-output")
        defer { scratch.remove() }
        let project = try makeProject(in: scratch)
        var result = try FlowpkgProcess.run(["export", "-o", "../dist/nightly/app.luapkg"], in: project)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("dist/nightly/app.luapkg").path))

        // A file where the folder would be: a clear error, nothing written.
        try Data("not a folder\n".utf8).write(to: scratch.url.appendingPathComponent("blocked"))
        result = try FlowpkgProcess.run(["export", "-o", "../blocked/app.luapkg"], in: project)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("cannot make the folder") && result.stdout.contains("[FP501]"),
            "\(result.stdout)")
    }
}
