@testable import FlowLiveDevelopment
import FlowLiveProtocol
import FlowLiveServer
import FlowLiveTestSupport
import FlowPackage
import FlowProject
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// The channel's way back: a `LiveReporter` in the program, a real `LiveServer` on loopback.
@Suite(.serialized) struct LiveReportTests {
    static func program(_ id: String = UUID().uuidString) -> LiveProgram {
        LiveProgram(id: id, identifier: "com.example.live", hostName: "test", platform: "Linux", processID: 42)
    }

    @Test func outputAndErrorsArriveInOrderWithTheProjectFileNamed() async throws {
        let events = Inbox<SessionEvent>()
        let fixture = try await LiveFixture(onEvent: { events.put($0) })
        defer { Task { await fixture.stop() } }
        let reporter = LiveReporter(url: fixture.url, token: LiveFixture.token, program: Self.program())
        defer { reporter.stop() }
        reporter.output("first\n")
        reporter.output("a partial")
        reporter.output(" line\n")
        reporter.output("second\n", stream: .stderr)
        reporter.output("unfinished")
        reporter.error(
            "reloading main: Sources/main.lua:2: attempt to call a nil value\nstack traceback: …", phase: .reload)
        reporter.reloaded(modules: ["main"], resources: [], milliseconds: 1.5)

        let error = await events.wait { $0.kind == .error }
        #expect(error?.file == "Sources/main.lua")
        #expect(error?.line == 2)
        #expect(error?.text.hasPrefix("Sources/main.lua:2: error: reloading main: attempt to call a nil value") == true)
        _ = await events.wait { $0.kind == .reload }
        let texts = events.all.filter { $0.kind == .output }.compactMap { $0.event?.text }
        // A partial line goes out before the error that follows it.
        #expect(texts == ["first", "a partial line", "second", "unfinished"])
        #expect(events.all.first?.kind == .connected)
        #expect(events.all.first { $0.event?.text == "second" }?.event?.stream == .stderr)
        #expect(events.all.first { $0.kind == .reload }?.text.contains("reloaded main in 1.5 ms") == true)
    }

    @Test func theHandWrittenJSONDecodesToTheSameReport() throws {
        let report = LiveReport(
            program: LiveProgram(
                id: "id \"1\"", identifier: "com.example.live", version: "1.2.3", digest: "abc", hostName: "héte",
                platform: "Linux x86_64", processID: 4242),
            dropped: 7,
            events: [
                LiveEvent(
                    kind: .output, time: 1_732_390_000.123456, stream: .stdout,
                    text: "quote \" back \\ tab \t nl \n cr \r"),
                LiveEvent(kind: .output, time: 0.5, stream: .stderr, text: "control \u{01}\u{1F} é 😀 </script>"),
                LiveEvent(kind: .log, time: 2, text: ""),
                LiveEvent(kind: .error, time: 3, text: "Sources/main.lua:2: boom\nstack traceback:", phase: .reload),
                LiveEvent(kind: .reload, time: 4, modules: ["main", "a.b"], resources: ["x.png"], milliseconds: 0.25),
                LiveEvent(
                    kind: .loaded, time: 5,
                    items: [
                        LiveLoadedItem(
                            kind: .module, name: "main", source: "live", size: 12, sha256: "00ff", loadedAt: 5),
                        LiveLoadedItem(
                            kind: .resource, name: "a.png", source: "embedded", size: 0, sha256: "", loadedAt: 6),
                    ]),
            ])
        let decoded = try JSONDecoder().decode(LiveReport.self, from: Data(report.jsonBytes))
        #expect(decoded == report)
    }

    @Test func serveShowsProgramTextEscapedAsItsLogIs() async throws {
        let events = Inbox<SessionEvent>()
        let fixture = try await LiveFixture(onEvent: { events.put($0) })
        defer { Task { await fixture.stop() } }
        let reporter = LiveReporter(url: fixture.url, token: LiveFixture.token, program: Self.program())
        defer { reporter.stop() }
        reporter.output("\u{1B}[2Jcleared\r forged \u{202E}\n")
        let line = await events.wait { $0.kind == .output }
        #expect(line?.event?.text == "\u{1B}[2Jcleared\r forged \u{202E}")
        #expect(line?.text == "com.example.live[42]: \\x1b[2Jcleared\\r forged \\u{202e}")
    }

    @Test func aLineLongerThanTheCapIsCut() async throws {
        let events = Inbox<SessionEvent>()
        let fixture = try await LiveFixture(onEvent: { events.put($0) })
        defer { Task { await fixture.stop() } }
        let reporter = LiveReporter(url: fixture.url, token: LiveFixture.token, program: Self.program())
        defer { reporter.stop() }
        reporter.output(String(repeating: "é", count: 20_000) + "\nafter\n")
        _ = await events.wait { $0.event?.text == "after" }
        let long = events.all.first { $0.kind == .output && $0.event?.text != "after" }?.event?.text ?? ""
        #expect(long.utf8.count <= LiveProtocol.maxLineBytes)
        #expect(long.hasSuffix("[cut at \(LiveProtocol.maxLineBytes) bytes]"))
    }

    @Test func wrongTokenMalformedAndOversizedReportsAreRefusedAndOthersStillServed() async throws {
        let events = Inbox<SessionEvent>()
        let fixture = try await LiveFixture(onEvent: { events.put($0) })
        defer { Task { await fixture.stop() } }
        let port = fixture.port
        let good = String(
            decoding: try JSONEncoder().encode(
                LiveReport(
                    program: Self.program(), dropped: 0, events: [LiveEvent(kind: .output, stream: .stdout, text: "ok")]
                )),
            as: UTF8.self)
        @Sendable func post(_ body: String, token: String = LiveFixture.token, length: Int? = nil) throws -> (
            Int, String
        ) {
            let request =
                "POST /v1/report HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Length: \(length ?? body.utf8.count)\r\n\r\n" + body
            let answer = try RawHTTP.send(port: port, request)
            return (answer.status, answer.body)
        }
        let wrongToken = try await blocking { try post(good, token: "not-the-token") }
        #expect(wrongToken.0 == 401)
        #expect(wrongToken.1.contains("wrong token"))
        let malformed = try await blocking { try post("{\"program\": 1") }
        #expect(malformed.0 == 400)
        #expect(malformed.1.contains("not a flowpkg live report"))
        let oversized = try await blocking { try post("{}", length: 2 << 20) }
        #expect(oversized.0 == 413)
        #expect(oversized.1.contains("more than"))
        let longText = String(
            decoding: try JSONEncoder().encode(
                LiveReport(
                    program: Self.program(), dropped: 0,
                    events: [LiveEvent(kind: .output, stream: .stdout, text: String(repeating: "x", count: 20_000))])),
            as: UTF8.self)
        let tooLong = try await blocking { try post(longText) }
        #expect(tooLong.0 == 400)
        #expect(tooLong.1.contains("more than \(LiveProtocol.maxLineBytes)"))
        #expect(fixture.log.contains { $0.contains("POST /v1/report → 401") })
        #expect(fixture.log.contains { $0.contains("POST /v1/report → 400: the report is not a flowpkg live report") })

        let accepted = try await blocking { try post(good) }
        #expect(accepted.0 == 204)
        let ok = await events.wait { $0.event?.text == "ok" }
        #expect(ok != nil)
        #expect(!events.all.contains { $0.event?.text?.hasPrefix("xxx") == true })
    }

    @Test func aFullBufferDropsTheOldestCountsThemAndReconnectsAfterARestart() async throws {
        // A server that stopped: its port is where the program keeps sending.
        let first = try await LiveFixture()
        let port = first.port
        await first.stop()
        let reporter = LiveReporter(
            url: URL(string: "http://127.0.0.1:\(port)")!, token: LiveFixture.token, program: Self.program(),
            capacity: 10, retryInterval: 0.05)
        defer { reporter.stop() }
        for index in 0..<25 { reporter.output("line \(index)\n") }

        // The server comes back on the same port; the program finds it by itself.
        let events = Inbox<SessionEvent>()
        let second = try await LiveFixture(listeningOn: port, onEvent: { events.put($0) })
        defer { Task { await second.stop() } }
        let last = await events.wait(timeout: 10) { $0.event?.text == "line 24" }
        #expect(last != nil)
        let lines = events.all.compactMap { $0.event?.text }
        #expect(lines == (15..<25).map { "line \($0)" })
        let dropped = events.all.first { $0.kind == .dropped }
        #expect(dropped?.dropped == 15)
        #expect(dropped?.text.contains("15 events dropped") == true)
    }

    /// A Swift host's way: a reporter as the context's output, given to `attach`, and the
    /// host's own lines through the session.
    @Test func aHostReportsOutputLoadsReloadsAndItsOwnLines() async throws {
        let events = Inbox<SessionEvent>()
        let fixture = try await LiveFixture(onEvent: { events.put($0) })
        defer { Task { await fixture.stop() } }
        let packages = try Scratch("host").url
        defer { try? FileManager.default.removeItem(at: packages) }
        let exported = Exporter.export(
            projectAt: fixture.root, options: ExportOptions(output: packages.appendingPathComponent("Live.luapkg").path)
        )
        #expect(exported.package != nil, "\(exported.diagnostics)")

        let configuration = DevelopmentMonitor.Configuration(url: fixture.url, token: LiveFixture.token)
        let reporter = LiveReporter(
            configuration: configuration, program: LiveReporter.thisProgram(identifier: "com.example.live"))
        let context = try LuaContext(
            package: PackageIdentifier("com.example.live"), in: [packages],
            options: .init(print: { _ in }).observingOutput(reporter.outputHandler))
        let session = try await blocking {
            LiveSession.attach(to: context, configuration: configuration, log: { _ in }, reporter: reporter)
        }
        defer {
            session.stop()
            context.terminate()
        }
        _ = try await blocking { try context.loadStartModule() }
        #expect(await events.wait { $0.event?.text == "hello" } != nil)
        session.post(log: "the host's own line")
        #expect(await events.wait { $0.kind == .log }?.event?.text == "the host's own line")

        // What was loaded, from where, with its size and SHA-256.
        let greetingFile = fixture.root.appendingPathComponent("Sources/greeting.lua")
        let greeting = try String(contentsOf: greetingFile, encoding: .utf8)
        let loaded = await events.wait { $0.event?.items?.first?.name == "greeting" }?.event?.items?.first
        #expect(loaded?.source == "live")
        #expect(loaded?.size == greeting.utf8.count)
        #expect(loaded?.sha256 == (try PackageFile.sha256(at: greetingFile)))
        #expect(await events.wait { $0.event?.items?.first?.name == "hello.txt" }?.event?.items?.first?.size == 5)

        // An edit: the reload and its time; a broken edit: the error, naming the project file.
        try fixture.write("return { text = 'edited' }\n", to: "Sources/greeting.lua")
        let reload = await events.wait { $0.kind == .reload }
        #expect(reload?.event?.modules == ["greeting", "main"])
        #expect((reload?.event?.milliseconds ?? -1) >= 0)
        #expect(await events.wait { $0.event?.text == "edited" } != nil)
        try fixture.write("return {\n  text = = 'broken'\n}\n", to: "Sources/greeting.lua")
        let error = await events.wait { $0.kind == .error }
        #expect(error?.file == "Sources/greeting.lua")
        #expect(error?.line == 2)
        #expect(error?.event?.phase == .reload)
    }

    @Test func severalProgramsAreToldApart() async throws {
        let events = Inbox<SessionEvent>()
        let fixture = try await LiveFixture(onEvent: { events.put($0) })
        defer { Task { await fixture.stop() } }
        let one = LiveReporter(url: fixture.url, token: LiveFixture.token, program: Self.program("one"))
        let two = LiveReporter(url: fixture.url, token: LiveFixture.token, program: Self.program("two"))
        defer {
            one.stop()
            two.stop()
        }
        one.output("from one\n")
        two.output("from two\n")
        #expect(await events.wait { $0.event?.text == "from one" }?.program.id == "one")
        #expect(await events.wait { $0.event?.text == "from two" }?.program.id == "two")
        #expect(events.all.filter { $0.kind == .connected }.count == 2)
    }
}
