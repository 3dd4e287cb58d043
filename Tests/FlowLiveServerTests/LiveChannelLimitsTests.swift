@testable import FlowHTTP
@testable import FlowLiveProtocol
@testable import FlowLiveServer
import FlowPackage
import Foundation
import Testing
import FlowLiveTestSupport

/// The live channel against clients that go away, fall behind, trickle or send events of
/// unexpected shapes: nothing holds a connection slot, a thread or memory for long.
@Suite(.serialized) struct LiveChannelLimitsTests {
    @Test func eventStreamsWhoseClientsLeftFreeTheirSlotsWithinSeconds() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        // Event streams, opened and then dropped by their clients.
        var streams: [PlainSocket] = []
        for _ in 0..<5 {
            let socket = try PlainSocket.connect(host: "127.0.0.1", port: Int(fixture.port), timeout: 2)
            try socket.send(Array("GET /v1/events HTTP/1.1\r\nAuthorization: Bearer \(LiveFixture.token)\r\n\r\n".utf8))
            socket.setTimeouts(send: 2, receive: 2)
            _ = try socket.receive(max: 4096)  // the head and the hello event: the stream is open
            streams.append(socket)
        }
        #expect(fixture.server.openConnections == 5)
        for socket in streams { socket.shutDown() }
        streams.removeAll()
        // No change is pushed, yet their slots come back within about a second.
        let deadline = Date(timeIntervalSinceNow: 10)
        while fixture.server.openConnections > 0 && Date() < deadline {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        #expect(fixture.server.openConnections == 0)
    }

    @Test func aSubscriberThatFallsBehindHasItsStreamEndedNotHoled() throws {
        let broadcaster = EventBroadcaster(revision: 1)
        let subscription = broadcaster.subscribe()
        let change = LiveChange(revision: 2, modules: [try ModuleName("main")])
        for _ in 0..<EventSubscription.capacity + 5 { broadcaster.send(change) }
        var events = 0
        while case .event = subscription.next(waitingAtMost: 0.1) { events += 1 }
        #expect(events == EventSubscription.capacity)
        #expect(subscription.next(waitingAtMost: 0.1) == .finished)
    }

    @Test func aSubscriptionAfterTheServerStoppedIsAlreadyFinished() {
        let broadcaster = EventBroadcaster(revision: 3)
        broadcaster.finishAll()
        let late = broadcaster.subscribe()
        guard case .event = late.next(waitingAtMost: 0.1) else { Issue.record("no hello"); return }
        #expect(late.next(waitingAtMost: 0.1) == .finished)
    }

    @Test func aReadStopsAtItsDeadlineHoweverTheBytesTrickle() throws {
        let listener = try PlainSocket.listen(host: "127.0.0.1", port: 0)
        let client = try PlainSocket.connect(host: "127.0.0.1", port: Int(listener.localPort ?? 0), timeout: 2)
        let (server, _) = try listener.accept()
        #expect(throws: PlainSocket.Failure.self) {
            try server.receive(max: 10, before: Date(timeIntervalSinceNow: 0.2))
        }
        #expect(throws: PlainSocket.Failure.self) {
            try server.receive(max: 10, before: Date(timeIntervalSinceNow: -1))
        }
        #expect(!server.isClosedByPeer)
        client.shutDown()
        // Waits for the end to reach this side (it shows as readable), then asks.
        #expect(PlainSocket.readable([server], within: 5) == [true])
        #expect(server.isClosedByPeer)
    }
}

@Suite struct LoopbackAddressTests {
    @Test func everySpellingOfThisMachineIsLoopbackAndNothingElse() {
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"] {
            #expect(LiveServerOptions(host: host, token: "t").isLoopback, "\(host)")
        }
        for host in ["0.0.0.0", "192.168.1.10", "::", "::ffff:10.0.0.1", "128.0.0.1", "example.com", "fe80::1"] {
            #expect(!LiveServerOptions(host: host, token: "t").isLoopback, "\(host)")
        }
    }
}
