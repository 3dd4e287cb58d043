import FlowTestSupport
import Foundation
import Testing

/// `--allow-outside-links` and `FLOWPKG_ALLOW_OUTSIDE_LINKS=1` on the commands that read a
/// project, run as a user runs them (issue 38).
@Suite struct OutsideLinkCommandTests {
    /// `App/` linking `../texts/x.txt`, in a scratch folder that is no git work tree.
    static func project() throws -> URL {
        let base = try Scratch("outside").url.standardizedFileURL
        let sources = base.appendingPathComponent("App/Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: base.appendingPathComponent("texts"), withIntermediateDirectories: true)
        try "forty-two\n".write(to: base.appendingPathComponent("texts/x.txt"), atomically: true, encoding: .utf8)
        try "print('x')\n".write(
            to: sources.appendingPathComponent("main.lua"), atomically: true, encoding: .utf8)
        try """
        {
          "name": "App",
          "identifier": "com.example.app",
          "version": "1.0.0",
          "startModule": "main",
          "resources": [{"path": "../texts/x.txt", "name": "x"}]
        }
        """.write(to: base.appendingPathComponent("App/flowpkg.json"), atomically: true, encoding: .utf8)
        return base
    }

    @Test func validateRefusesThenAllowsWithTheFlagOrTheEnvironment() throws {
        let base = try Self.project()
        defer { try? FileManager.default.removeItem(at: base) }
        let refused = try FlowpkgProcess.run(["validate", "App"], in: base)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("App/flowpkg.json:6:17: error: the linked resource '../texts/x.txt'"))
        #expect(refused.stdout.contains("--allow-outside-links"), "\(refused.stdout)")
        #expect(refused.stdout.contains("FLOWPKG_ALLOW_OUTSIDE_LINKS=1"), "\(refused.stdout)")
        #expect(refused.stdout.contains("[FP111]"))
        let flag = try FlowpkgProcess.run(["validate", "--allow-outside-links", "App"], in: base)
        #expect(flag.status == 0, "\(flag.stdout)\(flag.stderr)")
        let environment = try FlowpkgProcess.run(
            ["validate", "App"], in: base, environment: ["FLOWPKG_ALLOW_OUTSIDE_LINKS": "1"])
        #expect(environment.status == 0, "\(environment.stdout)\(environment.stderr)")
    }

    @Test func exportRefusesThenAllowsWithTheFlagOrTheEnvironment() throws {
        let base = try Self.project()
        defer { try? FileManager.default.removeItem(at: base) }
        let refused = try FlowpkgProcess.run(["export", "App", "-o", "a.luapkg"], in: base)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("[FP111]"), "\(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("a.luapkg").path))
        let flag = try FlowpkgProcess.run(["export", "App", "-o", "a.luapkg", "--allow-outside-links"], in: base)
        #expect(flag.status == 0, "\(flag.stdout)\(flag.stderr)")
        let environment = try FlowpkgProcess.run(
            ["export", "App", "-o", "b.luapkg"], in: base, environment: ["FLOWPKG_ALLOW_OUTSIDE_LINKS": "1"])
        #expect(environment.status == 0, "\(environment.stdout)\(environment.stderr)")
    }

    @Test func runOfAFolderRefusesThenAllowsWithTheFlag() throws {
        let base = try Self.project()
        defer { try? FileManager.default.removeItem(at: base) }
        let refused = try FlowpkgProcess.run(["run", "App"], in: base)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("FP111"), "\(refused.stderr)")
        let flag = try FlowpkgProcess.run(["run", "--allow-outside-links", "App"], in: base)
        #expect(flag.status == 0, "\(flag.stdout)\(flag.stderr)")
    }

    @Test func theBuildToolTakesTheFlag() throws {
        let base = try Self.project()
        defer { try? FileManager.default.removeItem(at: base) }
        let tool = FlowpkgProcess.executable(named: "FlowpkgBuildTool")
        let output = base.appendingPathComponent("tool.luapkg").path
        let refused = try FlowpkgProcess.run([base.appendingPathComponent("App").path, output], executable: tool)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("[FP111]"), "\(refused.stdout)")
        let allowed = try FlowpkgProcess.run(
            ["--allow-outside-links", base.appendingPathComponent("App").path, output], executable: tool)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func procSelfEnvironIsNeverExported() throws {
        let base = try Self.project()
        defer { try? FileManager.default.removeItem(at: base) }
        let json = base.appendingPathComponent("App/flowpkg.json")
        let text = try String(contentsOf: json, encoding: .utf8)
            .replacingOccurrences(of: "../texts/x.txt", with: "/proc/self/environ")
        try text.write(to: json, atomically: true, encoding: .utf8)
        let result = try FlowpkgProcess.run(
            ["export", "App", "-o", "a.luapkg", "--allow-outside-links"], in: base,
            environment: ["FLOWPKG_ALLOW_OUTSIDE_LINKS": "1", "CI_SECRET": "hunter2"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("[FP112]"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("a.luapkg").path))
    }
}
