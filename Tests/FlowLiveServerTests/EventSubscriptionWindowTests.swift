import FlowLiveDevelopment
@testable import FlowLiveServer
import FlowLoader
import FlowPackage
import Foundation
import Testing
import FlowLiveTestSupport

/// A change saved while a client's event stream is being set up, after its manifest was read
/// and before its subscription is in place, still reaches it.
@Suite(.serialized) struct EventSubscriptionWindowTests {
    @Test func aChangeSavedWhileTheStreamSubscribesIsNotLost() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        // The window, made to happen: when the stream's request reaches the server, greeting
        // is saved and its change sent before the subscription goes on.
        let held = Inbox<String>()
        let once = Inbox<Bool>()
        fixture.server.events.runBeforeSubscribing {
            guard once.all.isEmpty else { return }
            once.put(true)
            try? fixture.write("return { text = 'saved in the window' }\n", to: "Sources/greeting.lua")
            held.put(fixture.waitForLog { $0.hasPrefix("change r2:") } ?? "no change was sent")
        }
        let identifier = try PackageIdentifier("com.example.live")
        let loader = try Loader(identifier: identifier, sources: [])
        let changed = Inbox<[ModuleName]>()
        let logged = Inbox<String>()
        let session = LiveSession(
            monitor: DevelopmentMonitor(configuration: .init(url: fixture.url, token: LiveFixture.token)),
            loader: loader,
            hooks: .init(
                modulesChanged: { changed.put($0) }, resourceChanged: { _ in }, log: { logged.put($0) }))
        defer { session.stop() }
        _ = try await blocking { session.start(primary: .embeddedPackage) }
        #expect(session.isConnected, "\(logged.all)")

        // The change went out while no stream was subscribed…
        #expect(await held.wait() == "change r2: modules greeting → 0 clients", "\(fixture.log)")
        // …and the stream that opened after it still brings it.
        let greeting = try ModuleName("greeting")
        #expect(
            await changed.wait(timeout: 10) { $0 == [greeting] } != nil,
            "changes: \(changed.all) log: \(logged.all) server: \(fixture.log)")
        #expect(await logged.wait { $0 == "live: module greeting changed (r2)" } != nil, "\(logged.all)")
    }
}
