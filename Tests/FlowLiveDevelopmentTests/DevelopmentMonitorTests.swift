import FlowLiveDevelopment
import FlowLoader
import FlowPackage
import Foundation
import Testing
import FlowLiveTestSupport

/// Each test runs on its own thread without suspending (the monitor's connection blocks it a
/// moment), and its fixture stops when it ends: a test that suspends waits, when it resumes,
/// behind every test queued meanwhile on Swift's global executor, which is only as wide as the
/// machine has cores (docs/developing.md, "Durations in a full test run").
@Suite(.serialized) struct DevelopmentMonitorTests {
    let identifier = try! PackageIdentifier("com.example.live")

    private func connect(_ monitor: DevelopmentMonitor) -> DevelopmentMonitor.Outcome {
        monitor.connect(expecting: identifier)
    }

    @Test func connectsAndServesModulesAndResources() async throws {
        let fixture = try await LiveFixture()
        defer { fixture.close() }
        let monitor = DevelopmentMonitor(
            configuration: .init(url: fixture.url, token: LiveFixture.token, connectionTimeout: 2))
        guard case .connected(let source) = connect(monitor) else {
            Issue.record("did not connect"); return
        }
        #expect(source.kind == .live)
        let code = try #require(try source.module(named: ModuleName("greeting")))
        // Errors name the project's file; the path under the sources folder is kept for `require`.
        #expect(code.chunkName == "Sources/greeting.lua")
        #expect(code.path == "greeting.lua")
        #expect(String(decoding: code.bytes, as: UTF8.self).contains("getResource"))
        #expect(try source.module(named: ModuleName("absent")) == nil)
        #expect(try source.resource(ResourceKey(name: "hello", type: "txt")) == Array("hello".utf8))
    }

    @Test func anotherIdentifierIsRefused() async throws {
        let fixture = try await LiveFixture(identifier: "com.example.other")
        defer { fixture.close() }
        let monitor = DevelopmentMonitor(configuration: .init(url: fixture.url, token: LiveFixture.token))
        guard case .refused(let reason) = connect(monitor) else {
            Issue.record("a live source of another identifier was accepted"); return
        }
        #expect(reason.contains("com.example.other"))
        #expect(reason.contains("com.example.live"))
    }

    @Test func aWrongTokenIsRefused() async throws {
        let fixture = try await LiveFixture()
        defer { fixture.close() }
        let monitor = DevelopmentMonitor(configuration: .init(url: fixture.url, token: "not-the-token"))
        guard case .refused(let reason) = connect(monitor) else {
            Issue.record("a wrong token was accepted"); return
        }
        #expect(reason.contains("rejected the token"))
    }

    @Test func nothingListeningIsNotConnectedAfterTheTimeout() async throws {
        // Port 9 (discard) has no listener on a test machine.
        let monitor = DevelopmentMonitor(
            configuration: .init(
                url: URL(string: "http://127.0.0.1:9")!, token: "whatever-token",
                connectionTimeout: 0.3))
        guard case .notConnected(let reason) = connect(monitor) else {
            Issue.record("connected to nothing"); return
        }
        #expect(reason.contains("127.0.0.1:9"))
    }

    @Test func aLaterConnectionIsReported() async throws {
        let fixture = try await LiveFixture()
        defer { fixture.close() }
        let monitor = DevelopmentMonitor(configuration: .init(url: fixture.url, token: LiveFixture.token))
        defer { monitor.stop() }
        let connected = Inbox<String>()
        monitor.connectLater(expecting: identifier, retryInterval: 0.05, onConnect: { connected.put($0.location) })
        #expect(connected.waitHere() == fixture.url.absoluteString)
    }
}
