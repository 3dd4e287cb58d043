import FlowLiveDevelopment
import FlowLiveServer
import FlowLiveTestSupport
import FlowLoader
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// serve stops, the developer edits a file, serve starts again on the same port: the program
/// that kept running reloads what the new serve has with other bytes, and only that.
@Suite(.serialized) struct ServeRestartTests {
    @Test func aModuleEditedWhileServeWasDownIsReloadedWhenItComesBack() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        let loader = try Loader(identifier: try PackageIdentifier("com.example.live"), sources: [])
        let changed = Inbox<[ModuleName]>()
        let logged = Inbox<String>()
        let session = LiveSession(
            monitor: DevelopmentMonitor(configuration: .init(url: fixture.url, token: LiveFixture.token)),
            loader: loader,
            hooks: .init(modulesChanged: { changed.put($0) }, resourceChanged: { _ in }, log: { logged.put($0) }))
        defer { session.stop() }
        _ = try await blocking { session.start(primary: .embeddedPackage) }
        #expect(session.isConnected, "\(logged.all)")
        let main = try ModuleName("main")
        let greeting = try ModuleName("greeting")
        _ = try loader.module(named: main)
        _ = try loader.module(named: greeting)
        #expect(loader.loadedItems.map(\.source) == [.live, .live])

        fixture.server.stop()
        #expect(await logged.wait(timeout: 10) { $0.contains("what is loaded keeps running") } != nil, "\(logged.all)")
        try fixture.write("return { text = 'edited while serve was down' }\n", to: "Sources/greeting.lua")
        let restarted = try LiveServer(
            projectAt: fixture.root,
            options: LiveServerOptions(port: fixture.port, token: LiveFixture.token),
            log: { _ in }, paths: ProjectPaths(root: fixture.root, workingDirectory: fixture.root.path))
        try restarted.start()
        defer { restarted.stop() }

        // greeting is reloaded; main, served with the same bytes, is not.
        #expect(await changed.wait(timeout: 15) != nil, "\(logged.all)")
        #expect(changed.all == [[greeting]], "\(logged.all)")
        #expect(
            try loader.module(named: greeting).bytes == Array("return { text = 'edited while serve was down' }\n".utf8))
    }
}
