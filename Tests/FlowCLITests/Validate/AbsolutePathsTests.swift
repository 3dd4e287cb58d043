import FlowTestSupport
import Foundation
import Testing

/// `--absolute-paths`: what FlowpkgBuildPlugin passes, so a build log shows each problem at a
/// path an editor can open from any folder.
@Suite struct AbsolutePathsTests {
    @Test func diagnosticsNameFilesByTheirFullPaths() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('ok')\nlocal broken = = 1\n"])
        let module = root.appendingPathComponent("Sources/main.lua").standardizedFileURL.path
        let output = fixture.url.appendingPathComponent("App.luapkg")

        let relative = try FlowpkgProcess.run(["export", "App", "-o", output.path], in: fixture.url)
        #expect(relative.status == 1)
        #expect(
            relative.stdout.contains("\nApp/Sources/main.lua:2:")
                || relative.stdout.hasPrefix("App/Sources/main.lua:2:"),
            "\(relative.stdout)")

        for command in ["export", "validate"] {
            var arguments = [command, "App", "--absolute-paths"]
            if command == "export" { arguments += ["-o", output.path] }
            let result = try FlowpkgProcess.run(arguments, in: fixture.url)
            #expect(result.status == 1)
            #expect(result.stdout.contains("\(module):2:16: error: "), "\(command): \(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
