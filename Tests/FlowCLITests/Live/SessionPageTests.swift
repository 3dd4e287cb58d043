import FlowTestSupport
import Foundation
import Testing

/// The session page as a developer works in it, in Debian's chromium driven by Playwright
/// (`Scripts/session_page.py`): links into the editor, fixed errors folded, the console's
/// controls, a module's text, and the page without JavaScript.
@Suite(.serialized) struct SessionPageTests {
    static let scripts = CLITestFolder.url.appendingPathComponent("Scripts")

    /// A program with an error fixed since (helper) and a current one (main line 2).
    @Test func linksFixedErrorsConsoleAndModuleText() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let main =
            "print(\"hello from main\")\nfor i = 1, 25 do print(\"count \" .. i) end\n"
            + "local helper = require \"helper\"\nprint(helper.value)\n"
        let root = try fixture.project(
            "App", modules: ["main.lua": main, "helper.lua": "return { value = \"first value\" }\n"])
        let absolute = root.standardizedFileURL.path
        let (server, url, page) = try LiveSessionTests().serve(root, in: fixture)
        defer { server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", root.path, "--live", url, "--token", LiveSessionTests.token, "--watch"], in: fixture.url)
        defer { run.interrupt() }
        let transcript = { "serve:\n\(server.stdout)\nrun:\n\(run.stdout)\(run.stderr)" }
        #expect(server.waitFor { out, _ in out.contains("]: first value") }, "\(transcript())")
        try fixture.write(root.appendingPathComponent("Sources/helper.lua"), "error(\"helper broke\")\n")
        #expect(server.waitFor { out, _ in out.contains("App/Sources/helper.lua:1: error:") }, "\(transcript())")
        try fixture.write(root.appendingPathComponent("Sources/helper.lua"), "return { value = \"fixed value\" }\n")
        #expect(server.waitFor { out, _ in out.contains("]: fixed value") }, "\(transcript())")
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "local t = nil\nprint(t.field)\n")
        #expect(server.waitFor { out, _ in out.contains("App/Sources/main.lua:2: error:") }, "\(transcript())")

        let seen = try Self.drive(page, in: fixture.url)
        let hrefs = seen["hrefs"] as? [String] ?? []
        // Links open the editor at the absolute path, line and column.
        #expect(hrefs.contains("vscode://file\(absolute)/Sources/main.lua:2:1"), "\(hrefs)")
        #expect(hrefs.contains("vscode://file\(absolute)/Sources/helper.lua:1:1"), "\(hrefs)")
        // The current error first, the fixed one folded; the heading counts the current ones.
        #expect(seen["errorsTitle"] as? String == "Errors (1 current, 1 fixed)", "\(seen)")
        let kinds = seen["errorKinds"] as? [String] ?? []
        #expect(kinds == ["error current", "error fixed"], "\(kinds)")
        let fixed = seen["fixed"] as? [[String: Any]] ?? []
        #expect(fixed.count == 1 && fixed.first?["open"] as? Bool == false, "\(fixed)")
        #expect((fixed.first?["summary"] as? String)?.contains("helper broke") == true, "\(fixed)")
        #expect((seen["current"] as? [String])?.first?.contains("attempt to index") == true, "\(seen)")
        // Copyable path:line:col, as a terminal shows the path.
        #expect((seen["locations"] as? [String] ?? []).contains("App/Sources/main.lua:2:1"), "\(seen)")
        // The console: output, a separator at each reload, the filter, errors only, the cap.
        let console = seen["console"] as? [String] ?? []
        #expect(console.contains("hello from main") && console.contains("fixed value"), "\(console)")
        let separators = seen["separators"] as? [String] ?? []
        #expect(separators.contains { $0.contains("reloaded helper, main") }, "\(separators)")
        #expect(seen["filtered"] as? [String] == ["hello from main", "hello from main"], "\(seen)")
        #expect((seen["errorsOnly"] as? [String] ?? []).allSatisfy { !$0.contains("hello") }, "\(seen)")
        // At most N lines kept (here 10), with how many were dropped.
        let kept = seen["kept"] as? [String] ?? []
        #expect(kept.first?.hasSuffix(" dropped") == true, "\(kept)")
        #expect(kept.filter { !$0.hasSuffix(" dropped") && !$0.hasPrefix("── reloaded") }.count == 10, "\(kept)")
        #expect(seen["cleared"] as? [String] == ["(cleared)"], "\(seen)")
        // Loaded items sorted and searchable; a module's current text.
        #expect(seen["items"] as? [String] == ["helper", "main"], "\(seen)")
        #expect(seen["itemsFound"] as? [String] == ["helper"], "\(seen)")
        #expect(seen["moduleText"] as? String == "local t = nil\nprint(t.field)\n", "\(seen)")
        #expect((seen["scriptErrors"] as? [String] ?? []).isEmpty, "\(seen)")
        // Without JavaScript: the same state, written by the server.
        let bare = seen["noscript"] as? [String: Any] ?? [:]
        #expect((bare["hrefs"] as? [String] ?? []).contains("vscode://file\(absolute)/Sources/main.lua:2:1"), "\(bare)")
        #expect((bare["console"] as? [String] ?? []).contains("hello from main"), "\(bare)")
        #expect(bare["fixed"] as? Int == 1, "\(bare)")
        #expect(bare["controlsHidden"] as? Bool == true)
        #expect((bare["text"] as? String)?.contains("Errors (1 current, 1 fixed)") == true, "\(bare)")
    }

    /// A program that ended shows as disconnected, and its next run replaces it.
    @Test func aDisconnectedProgramIsReplacedWhenItRunsAgain() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print(\"run once\")\n"])
        let (server, url, page) = try LiveSessionTests().serve(root, in: fixture)
        defer { server.interrupt() }
        let first = try FlowpkgProcess.run(
            ["run", root.path, "--live", url, "--token", LiveSessionTests.token], in: fixture.url)
        #expect(first.status == 0)
        #expect(server.waitFor { out, _ in out.contains("ended its session") }, "\(server.stdout)")
        let ended = try LiveSessionTests.dumpDOM(page, in: fixture.url)
        #expect(ended.contains("<span class=\"badge\">disconnected</span>"), "\(ended)")
        let second = try BackgroundFlowpkg(
            ["run", root.path, "--live", url, "--token", LiveSessionTests.token, "--watch"], in: fixture.url)
        defer { second.interrupt() }
        #expect(server.waitFor { out, _ in out.contains("[\(second.process.processIdentifier)]: run once") })
        let replaced = try LiveSessionTests.dumpDOM(page, in: fixture.url)
        #expect(replaced.components(separatedBy: "class=\"program").count == 2, "one program: \(replaced)")
        #expect(replaced.contains("(pid \(second.process.processIdentifier))"))
        #expect(replaced.contains("<span class=\"badge\">connected</span>"))
    }

    /// `--editor COMMAND`: a link runs the command on the server's machine, for project files only.
    @Test func anEditorCommandRunsOnTheServersMachine() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('x')\n"])
        let marker = fixture.url.appendingPathComponent("opened")
        let (server, url, _) = try LiveSessionTests().serve(
            root, in: fixture, ["--editor", "cp {path} \(marker.path)"])
        defer { server.interrupt() }
        let file = root.standardizedFileURL.path + "/Sources/main.lua"
        let open = try FlowpkgProcess.run(
            [
                "python3", "-c", Self.fetch,
                url + "/v1/open?path=\(file)&line=3&column=2&token=\(LiveSessionTests.token)",
            ],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(open.stdout.hasPrefix("204"), "\(open.stdout)\(open.stderr)")
        #expect(server.waitFor { _, _ in FileManager.default.fileExists(atPath: marker.path) }, "\(server.stdout)")
        #expect(server.stdout.contains("opened App/Sources/main.lua:3:2 with cp"), "\(server.stdout)")
        let outside = try FlowpkgProcess.run(
            ["python3", "-c", Self.fetch, url + "/v1/open?path=/etc/passwd&token=\(LiveSessionTests.token)"],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(outside.stdout.hasPrefix("404"), "\(outside.stdout)")
        let noToken = try FlowpkgProcess.run(
            ["python3", "-c", Self.fetch, url + "/v1/open?path=\(file)"],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(noToken.stdout.hasPrefix("401"), "\(noToken.stdout)")
    }

    static let fetch = """
        import sys, urllib.request, urllib.error
        try:
            print(urllib.request.urlopen(sys.argv[1]).status)
        except urllib.error.HTTPError as e:
            print(e.code)
        """

    static func drive(_ page: String, in directory: URL) throws -> [String: Any] {
        let shot = directory.appendingPathComponent("session-page.png")
        let result = try FlowpkgProcess.run(
            ["python3", scripts.appendingPathComponent("session_page.py").path, page, shot.path],
            in: directory, executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard result.status == 0,
            let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw FixtureError(message: "the page driver failed:\n\(result.stdout)\(result.stderr)") }
        return object
    }
}
