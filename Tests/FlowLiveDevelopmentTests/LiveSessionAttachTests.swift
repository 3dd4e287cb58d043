import FlowProject
import FlowLiveDevelopment
import FlowLoader
import FlowPackage
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing
import FlowLiveTestSupport

/// `LiveSession.attach(to:configuration:)` against a real `LiveServer` on loopback: the one
/// call a host makes, with the context over the project's exported package.
@Suite(.serialized) struct LiveSessionAttachTests {
    static let main = """
        local greeting = require 'greeting'
        print('main sees ' .. greeting.text)
        local note = setmetatable({}, { __newindex = function(_, _, value) print('note: ' .. value) end })
        getResource('hello', 'txt', note, 'text')
        """

    /// The fixture's project exported to a package in a folder of its own, as a host ships it.
    func exportPackage(of fixture: LiveFixture) throws -> URL {
        let folder = try Scratch("attach").url
        let result = Exporter.export(
            projectAt: fixture.root,
            options: ExportOptions(output: folder.appendingPathComponent("Live.luapkg").path))
        #expect(result.package != nil, "\(result.diagnostics)")
        return folder
    }

    @Test func anEditedModuleRerunsTheModuleThatRequiredItAndResourcesArriveAgain() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        try fixture.write(Self.main, to: "Sources/main.lua")
        let packages = try exportPackage(of: fixture)
        defer { try? FileManager.default.removeItem(at: packages) }

        let printed = Inbox<String>()
        let logged = Inbox<String>()
        let context = try LuaContext(
            package: PackageIdentifier("com.example.live"), in: [packages],
            options: .init(print: { printed.put($0) }))
        let url = fixture.url
        let session = try await blocking {
            LiveSession.attach(
                to: context, configuration: .init(url: url, token: LiveFixture.token), log: { logged.put($0) })
        }
        defer {
            session.stop()
            context.terminate()
        }
        #expect(session.isConnected)
        #expect(await logged.wait { $0.hasPrefix("live: connected to") } != nil)
        _ = try await blocking { try context.loadStartModule() }
        #expect(await printed.wait { $0 == "main sees hello\n" } != nil)
        #expect(context.loadedItems.contains { $0.description == "module greeting <- live \(url.absoluteString)" })

        // greeting changes; main, which required it, runs again and sees the new value.
        try fixture.write("return { text = 'edited' }\n", to: "Sources/greeting.lua")
        #expect(await printed.wait { $0 == "main sees edited\n" } != nil, "printed: \(printed) log: \(logged)")
        #expect(await logged.wait { $0.hasPrefix("live: module greeting changed") } != nil)

        // The resource is delivered again to the association main made with getResource.
        try fixture.write("changed", to: "Resources/hello.txt")
        #expect(await printed.wait { $0 == "note: changed\n" } != nil)

        // A broken edit is logged; what runs keeps running.
        try fixture.write("return {", to: "Sources/greeting.lua")
        #expect(
            await logged.wait { $0.hasPrefix("error: reloading greeting:") && $0.contains("greeting.lua:1:") } != nil,
            "log: \(logged)")
        #expect(try await blocking { try context.execute("return require('greeting').text") } == ["edited"])
    }

    @Test func withNothingListeningThePackageRuns() async throws {
        let fixture = try await LiveFixture()
        try fixture.write(Self.main, to: "Sources/main.lua")
        let packages = try exportPackage(of: fixture)
        await fixture.stop()
        defer { try? FileManager.default.removeItem(at: packages) }
        let printed = Inbox<String>()
        let logged = Inbox<String>()
        let context = try LuaContext(
            package: PackageIdentifier("com.example.live"), in: [packages],
            options: .init(print: { printed.put($0) }))
        let session = try await blocking {
            LiveSession.attach(
                to: context,
                configuration: .init(
                    url: URL(string: "http://127.0.0.1:9")!, token: LiveFixture.token,
                    connectionTimeout: 0.2),
                log: { logged.put($0) })
        }
        defer {
            session.stop()
            context.terminate()
        }
        #expect(!session.isConnected)
        #expect(await logged.wait { $0.contains("no live source at http://127.0.0.1:9") } != nil)
        _ = try await blocking { try context.loadStartModule() }
        #expect(await printed.wait { $0 == "main sees hello\n" } != nil)
        #expect(context.loadedItems.allSatisfy { $0.source == .embeddedPackage })
    }
}
