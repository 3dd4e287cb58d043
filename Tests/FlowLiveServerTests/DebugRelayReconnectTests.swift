import FlowHTTP
import FlowLiveProtocol
import FlowLiveTestSupport
import FlowSupport
import Foundation
import Testing

/// `flowpkg serve`'s debug relay when a program's debug channel connects again under the same
/// id before the relay noticed its old stream end (the program ended it after a message the
/// relay did not take, and came back a second later, as `DebugLiveChannel` does). The program's
/// engine has let go of its debugger by then (its stop ended, its breakpoints cleared), so the
/// debugger attached through the old stream must hear of it, not wait for answers that went
/// down the old stream.
@Suite struct DebugRelayReconnectTests {
    /// One event stream read on its own thread: its events' names, whether it is open, and how
    /// it ended.
    final class Stream: Sendable {
        let source: EventSource
        let state = Awaited((open: false, names: [String](), ended: false))

        init(_ url: URL) {
            source = EventSource(url: url, token: LiveFixture.token)
            source.start(
                onOpen: { [state] in state.withLock { $0.open = true } },
                onEvent: { [state] name, _ in state.withLock { $0.names.append(name) } },
                onEnd: { [state] _ in state.withLock { $0.ended = true } })
        }

        /// Whether `condition` held within a minute (a guard against hanging, not a timing).
        func reaches(_ condition: @escaping ((open: Bool, names: [String], ended: Bool)) -> Bool) -> Bool {
            state.wait(until: { condition($0) ? true : nil }, deadline: Date() + 60) == true
        }

        /// Whether the relay attached this debugger's stream (rather than refusing or ending it).
        var attached: Bool {
            reaches { $0.names.contains(LiveProtocol.debugAttachedEvent) || $0.ended }
                && state.withLock { $0.names.contains(LiveProtocol.debugAttachedEvent) }
        }
    }

    @Test func aProgramConnectingAgainEndsTheStreamOfTheDebuggerItLetGoOf() async throws {
        let fixture = try await LiveFixture(identifier: "com.example.app")
        defer { fixture.close() }
        try Self.reconnect(through: fixture)
    }

    private static func reconnect(through fixture: LiveFixture) throws {
        let program = Self.url(fixture, LiveProtocol.debugProgramPath, "id=p1&identifier=com.example.app&pid=4242")
        let first = Stream(program)
        defer { first.source.cancel() }
        #expect(first.reaches { $0.open })
        let debugger = Stream(Self.url(fixture, LiveProtocol.debugClientPath, "program=com.example.app"))
        defer { debugger.source.cancel() }
        #expect(debugger.attached)

        // The program comes back while its first stream is still open on the relay's side.
        let second = Stream(program)
        defer { second.source.cancel() }
        #expect(second.reaches { $0.open })
        #expect(debugger.reaches { $0.ended }, "the debugger stayed attached to a program that let go of it")

        // A debugger attaches afresh, and its requests reach the program's new stream.
        let again = Stream(Self.url(fixture, LiveProtocol.debugClientPath, "program=com.example.app"))
        defer { again.source.cancel() }
        #expect(again.attached, "the program could not take a debugger again")
        let request = try JSONEncoder().encode(DebugRequest(seq: 1, command: .threads))
        let answer = try HTTPConnection.exchange(
            "POST", Self.url(fixture, LiveProtocol.debugClientPath, "program=p1"),
            headers: [("Authorization", "Bearer \(LiveFixture.token)"), ("Content-Type", "application/json")],
            body: [UInt8](request), timeout: 10)
        #expect(answer.status == 204)
        #expect(second.reaches { $0.names.contains(LiveProtocol.debugEvent) })
        #expect(!first.state.withLock { $0.names.contains(LiveProtocol.debugEvent) })
    }

    private static func url(_ fixture: LiveFixture, _ path: String, _ query: String) -> URL {
        URL(string: "\(fixture.url.absoluteString)\(path)?\(query)")!
    }
}
