import FlowTestSupport
import Foundation
import Testing

/// `flowpkg serve` and `flowpkg run --live` together, as a developer runs them: what the
/// program prints and the errors it meets reach serve's terminal, its JSON output, and the
/// session page, read by a real headless Chromium.
@Suite(.serialized) struct LiveSessionTests {
    static let token = "session-test-token"
    static let hostile =
        "<script>document.title='pwned'</script><img src=x onerror=\"document.body.setAttribute('data-pwned','yes')\">"

    /// `flowpkg serve` with extra arguments; returns it with its base URL and session page URL.
    func serve(_ root: URL, in fixture: RunFixture, _ extra: [String] = []) throws -> (
        server: BackgroundFlowpkg, url: String, page: String
    ) {
        let server = try BackgroundFlowpkg(
            ["serve", root.path, "--port", "0", "--token", Self.token] + extra, in: fixture.url)
        var url: String?, page: String?
        server.waitFor { stdout, _ in
            for line in stdout.split(separator: "\n") {
                if line.hasPrefix("Serving ") { url = line.components(separatedBy: " at ").last }
                if line.hasPrefix("Session page: ") { page = String(line.dropFirst("Session page: ".count)) }
                if line.hasPrefix("{"), let object = Self.json(line), object["kind"] as? String == "serving" {
                    url = object["url"] as? String
                    page = object["page"] as? String
                }
            }
            return url != nil && page != nil
        }
        guard let url, let page else { throw FixtureError(message: "flowpkg serve did not start:\n\(server.stderr)") }
        return (server, url, page)
    }

    static func json(_ line: Substring) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    @Test func printsErrorsAndFixesReachServeAndTheSessionPage() throws {
        let fixture = try RunFixture()
        let main = "print(\"hello from main\")\nprint(\(Self.luaString(Self.hostile)))\n"
        let root = try fixture.project("App", modules: ["main.lua": main])
        let (server, url, page) = try serve(root, in: fixture)
        defer { server.interrupt() }
        let run = try BackgroundFlowpkg(
            ["run", root.path, "--live", url, "--token", Self.token, "--watch"], in: fixture.url)
        defer { run.interrupt() }
        func served(_ text: String) -> Bool {
            server.waitFor { stdout, _ in stdout.contains(text) }
        }
        let transcript = { "serve:\n\(server.stdout)\(server.stderr)\nrun:\n\(run.stdout)\(run.stderr)" }

        // A printed line arrives, prefixed by the program.
        #expect(served("com.example.app[\(run.process.processIdentifier)]: hello from main"), "\(transcript())")
        #expect(run.stdout.contains("hello from main"))

        // A broken save arrives as an error naming the project file and line.
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "print('broken'\nlocal x = = 1\n")
        #expect(served("Sources/main.lua:2: error:"), "\(transcript())")

        // The fix runs again.
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "print(\"fixed \" .. 6 * 7)\n")
        #expect(served("]: fixed 42"), "\(transcript())")

        // A run-time error arrives with its place.
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "local t = nil\nprint(t.field)\n")
        #expect(
            server.waitFor { stdout, _ in
                stdout.split(separator: "\n").contains {
                    // Named as validate and run name it, from the folder serve runs in.
                    $0.hasPrefix("App/Sources/main.lua:2: error:") && $0.contains("attempt to index")
                }
            }, "\(transcript())")
        #expect(served("reloaded main in"))

        // The page as served, before any script runs (what a browser without JavaScript
        // shows): the printed markup escaped there too.
        let raw = try FlowpkgProcess.run(
            [
                "python3", "-c",
                "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                page,
            ],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(raw.stdout.contains("hello from main"), "\(raw.stdout)\(raw.stderr)")
        #expect(raw.stdout.contains("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;&lt;img src=x"))
        #expect(!raw.stdout.contains("<script>document.title"))
        #expect(!raw.stdout.contains("<img"))

        // The session page, in a real browser.
        let dom = try Self.dumpDOM(page, in: fixture.url)
        #expect(dom.contains("hello from main"), "\(dom)")
        #expect(dom.contains("fixed 42"))
        #expect(dom.contains("attempt to index"))
        #expect(dom.contains("Sources/main.lua:2"))
        // The source lines around the error, its own line marked.
        #expect(dom.contains("<div class=\"here\">    2  print(t.field)</div>"))
        // The broken save's error, shown as text.
        #expect(dom.contains("near"))
        // The loaded modules table: main, served by the live source, with its SHA-256.
        #expect(
            dom.contains(
                "<td>module</td><td><button class=\"link module-name\" type=\"button\">main</button></td><td>live</td>"),
            "\(dom)")
        // The printed markup is text: escaped in the DOM, never run.
        #expect(dom.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;&lt;img src=x"))
        #expect(dom.contains("<title>flowpkg live session</title>"))
        #expect(!dom.contains("<img"))
        #expect(!dom.contains("data-pwned=\"yes\""))
        // The project's diagnostics and the connected program.
        #expect(dom.contains("Project diagnostics"))
        #expect(dom.contains("com.example.app (pid \(run.process.processIdentifier))"))
    }

    @Test func aProgramKeepsRunningWhileServeRestartsAndReportsToTheNewOne() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print(\"first run\")\n"])
        let (first, url, _) = try serve(root, in: fixture)
        let run = try BackgroundFlowpkg(
            ["run", root.path, "--live", url, "--token", Self.token, "--watch"], in: fixture.url)
        defer { run.interrupt() }
        #expect(first.waitFor { stdout, _ in stdout.contains("]: first run") }, "\(first.stdout)")
        first.interrupt()
        #expect(run.waitFor { _, stderr in stderr.contains("what is loaded keeps running") }, "\(run.stderr)")
        #expect(run.process.isRunning)

        let port = String(url.split(separator: ":").last!)
        let second = try BackgroundFlowpkg(
            ["serve", root.path, "--port", port, "--token", Self.token], in: fixture.url)
        defer { second.interrupt() }
        #expect(second.waitFor { stdout, _ in stdout.contains("Serving ") })
        #expect(
            run.waitFor { _, stderr in
                stderr.contains("live: connected") && stderr.components(separatedBy: "live: connected").count == 3
            }, "\(run.stderr)")
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "print(\"after the restart\")\n")
        #expect(
            second.waitFor { stdout, _ in stdout.contains("]: after the restart") },
            "serve:\n\(second.stdout)\nrun:\n\(run.stderr)")
    }

    /// Under a live session `print` is wrapped (so serve sees the line), and it still flushes
    /// stdout after each line as stock Lua's does: a program read through a pipe shows its line
    /// while it is still running, not at exit.
    @Test func printedLinesReachAPipeAtOnceUnderALiveSession() throws {
        let fixture = try RunFixture()
        let go = fixture.url.appendingPathComponent("go")
        let main = """
            print("waiting")
            local deadline = os.time() + 20
            while os.time() < deadline do
              local f = io.open(\(Self.luaString(go.path)))
              if f then f:close() break end
            end
            print("done")

            """
        let root = try fixture.project("App", modules: ["main.lua": main])
        let (server, url, _) = try serve(root, in: fixture)
        defer { server.interrupt() }
        let run = try BackgroundFlowpkg(["run", root.path, "--live", url, "--token", Self.token], in: fixture.url)
        defer { run.interrupt() }
        #expect(
            run.waitFor { stdout, _ in stdout.contains("waiting") } && run.process.isRunning,
            "the line reached the pipe only when the program ended: \(run.stdout)")
        try Data().write(to: go)
        #expect(run.waitFor { stdout, _ in stdout.contains("done") }, "\(run.stdout)\(run.stderr)")
    }

    @Test func theSessionPageNeedsTheToken() throws {
        let fixture = try RunFixture()
        let root = try fixture.project("App", modules: ["main.lua": "print('x')\n"])
        let (server, url, _) = try serve(root, in: fixture)
        defer { server.interrupt() }
        let dom = try Self.dumpDOM(url + "/session?token=wrong", in: fixture.url)
        #expect(dom.contains("wrong token"))
        #expect(!dom.contains("Connected programs"))
    }

    @Test func serveFormatJSONPrintsOneObjectPerEvent() throws {
        let fixture = try RunFixture()
        let root = try fixture.project(
            "App", modules: ["main.lua": "print(\"json line\")\nio.stderr:write(\"to stderr\\n\")\nerror(\"boom\")\n"])
        let (server, url, _) = try serve(root, in: fixture, ["--format", "json"])
        defer { server.interrupt() }
        let result = try FlowpkgProcess.run(["run", root.path, "--live", url, "--token", Self.token], in: fixture.url)
        #expect(result.status == 1)
        #expect(result.stdout.contains("json line"))
        func objects() -> [[String: Any]] { server.stdout.split(separator: "\n").compactMap(Self.json) }
        // The program's last words arrive before it exits: its error, then the end of its session.
        #expect(server.waitFor { _, _ in objects().contains { $0["kind"] as? String == "ended" } }, "\(server.stdout)")
        let all = objects()
        #expect(all.count == server.stdout.split(separator: "\n").count, "every line is one JSON object")
        let output = all.first { $0["kind"] as? String == "output" && $0["text"] as? String == "json line" }
        #expect((output?["program"] as? [String: Any])?["identifier"] as? String == "com.example.app")
        #expect(
            all.contains {
                $0["kind"] as? String == "output" && $0["stream"] as? String == "stderr"
                    && $0["text"] as? String == "to stderr"
            })
        let error = all.first { $0["kind"] as? String == "error" }
        #expect(error?["file"] as? String == "App/Sources/main.lua")
        #expect(error?["line"] as? Int == 3)
        #expect(error?["phase"] as? String == "start")
        #expect((error?["text"] as? String)?.contains("boom") == true)
        #expect(all.contains { $0["kind"] as? String == "loaded" })
        let kinds = all.compactMap { $0["kind"] as? String }
        #expect((kinds.firstIndex(of: "error") ?? .max) < (kinds.firstIndex(of: "ended") ?? .min))
    }

    static func luaString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The page as headless Chromium has it after its scripts ran for a few (virtual) seconds.
    static func dumpDOM(_ url: String, in directory: URL) throws -> String {
        let profile = directory.appendingPathComponent("chromium-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-extensions",
            "--user-data-dir=\(profile.path)", "--virtual-time-budget=4000", "--dump-dom", url,
        ]
        let output = directory.appendingPathComponent("dom-\(UUID().uuidString).html")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return try String(contentsOf: output, encoding: .utf8)
    }
}
