import FlowTestSupport
import Foundation
import Testing

/// The live token never reaches a command line (issue 43, item 2): `flowpkg dev` and
/// `run DIR --watch` give their child `run` the token in its environment, which only the same
/// user can read, not in its arguments, which `/proc/PID/cmdline` shows to every local user.
@Suite(.serialized) struct LiveTokenCommandLineTests {
    /// The child `run` of `parent`, once it printed what the program prints.
    func child(of parent: BackgroundFlowpkg, in folder: URL) throws -> pid_t {
        let children = try FlowpkgProcess.run(
            ["pgrep", "-P", "\(parent.process.processIdentifier)"], in: folder,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        return try #require(pid_t(children.stdout.split(separator: "\n").first ?? ""), "\(children.stdout)")
    }

    /// `/proc/PID/FILE` as `nobody` reads it (another local user), or nil when it may not.
    func readAsNobody(_ pid: pid_t, _ file: String, in folder: URL) throws -> String? {
        let result = try FlowpkgProcess.run(
            ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", "/bin/cat", "/proc/\(pid)/\(file)"],
            in: URL(fileURLWithPath: "/"), executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        return result.status == 0 ? result.stdout : nil
    }

    func checkNoTokenVisible(child: pid_t, token: String, in folder: URL) throws {
        let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline"))
        let arguments = String(decoding: commandLine, as: UTF8.self).split(separator: "\0").map(String.init)
        #expect(arguments.contains("--live"), "\(arguments)")
        #expect(!arguments.contains { $0.contains(token) }, "the token is on the child's command line: \(arguments)")
        #expect(!arguments.contains("--token"), "\(arguments)")
        // Another user: the command line without the token, the environment not at all.
        if getuid() == 0 {
            let seen = try #require(try readAsNobody(child, "cmdline", in: folder), "nobody cannot read cmdline")
            #expect(seen.contains("--live") && !seen.contains(token), "\(seen)")
            #expect(try readAsNobody(child, "environ", in: folder) == nil)
        }
    }

    @Test func devGivesTheTokenThroughTheEnvironment() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        _ = try fixture.project("App", modules: ["main.lua": "print(\"dev runs\")\n"])
        let dev = try BackgroundFlowpkg(["dev", "App"], in: fixture.url)
        defer { dev.interrupt() }
        var token: String?
        #expect(
            dev.waitFor { stdout, _ in
                token = stdout.split(separator: "\n").first { $0.hasPrefix("Session page: ") }
                    .flatMap { line in line.components(separatedBy: "token=").last }
                return token != nil && stdout.contains("dev runs")
            }, "\(dev.stdout)\(dev.stderr)")
        let secret = try #require(token)
        #expect(secret.count >= 16)
        try checkNoTokenVisible(child: try child(of: dev, in: fixture.url), token: secret, in: fixture.url)
    }

    /// `run DIR --watch` prints no token; the child's environment holds the one its server
    /// checks, so the token is read from there (as root) to look for it on the command line.
    @Test func runWatchGivesTheTokenThroughTheEnvironment() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        _ = try fixture.project("App", modules: ["main.lua": "print(\"watch runs\")\n"])
        let run = try BackgroundFlowpkg(["run", "App", "--watch"], in: fixture.url)
        defer { run.interrupt() }
        #expect(run.waitFor { stdout, _ in stdout.contains("watch runs") }, "\(run.stdout)\(run.stderr)")
        let child = try child(of: run, in: fixture.url)
        let environment = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/environ"))
        let token = try #require(
            String(decoding: environment, as: UTF8.self).split(separator: "\0")
                .first { $0.hasPrefix("FLOWPKG_LIVE_TOKEN=") }.map {
                    String($0.dropFirst("FLOWPKG_LIVE_TOKEN=".count))
                },
            "the child has no FLOWPKG_LIVE_TOKEN")
        #expect(token.count >= 16)
        try checkNoTokenVisible(child: child, token: token, in: fixture.url)
    }
}
