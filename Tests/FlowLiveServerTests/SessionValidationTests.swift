import FlowLiveProtocol
import FlowLiveTestSupport
import FlowPackage
import FlowProject
import Foundation
import Testing

@testable import FlowLiveServer

/// The session page's diagnostics come from one incremental validation session: a revision
/// that changed one module re-checks that module alone, and what the page shows is what a
/// whole `flowpkg validate` reports.
@Suite struct SessionValidationTests {
    struct Page: Decodable {
        struct Row: Decodable {
            var file: String?
            var line: Int?
            var code: String
        }
        struct Summary: Decodable { var revision: Int }
        var project: Summary
        var diagnostics: [Row]
    }

    static func page(_ fixture: LiveFixture) async throws -> Page {
        let port = fixture.port
        let answer = try await blocking {
            try RawHTTP.get(port: port, target: "/v1/session", token: LiveFixture.token)
        }
        #expect(answer.status == 200)
        return try JSONDecoder().decode(Page.self, from: Data(answer.body.utf8))
    }

    /// The codes a whole validation reports now, in order.
    static func validated(_ fixture: LiveFixture) -> [String] {
        Validator.validate(projectAt: fixture.root).diagnostics.map(\.code.code)
    }

    @Test func aRevisionReChecksOnlyTheModulesThatChanged() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        try fixture.write("return { shout = function(s) return s .. '!' end }\n", to: "Sources/shout.lua")
        fixture.server.project.rescan()
        let first = try await Self.page(fixture)
        #expect(first.diagnostics.map(\.code) == Self.validated(fixture))
        // main, greeting and shout: each checked once.
        #expect(fixture.server.validation.modulesAnalysed == 3)

        try fixture.write(
            "return { text = getResource('hello', 'txt'), extra = undefinedThing }\n", to: "Sources/greeting.lua")
        fixture.server.project.rescan()
        let second = try await Self.page(fixture)
        #expect(second.project.revision > first.project.revision)
        #expect(second.diagnostics.contains { $0.code == "FP405" && $0.file == "Sources/greeting.lua" && $0.line == 1 })
        #expect(second.diagnostics.map(\.code) == Self.validated(fixture))
        #expect(fixture.server.validation.modulesAnalysed == 4, "only greeting.lua was checked again")

        // The same revision again: nothing is checked.
        _ = try await Self.page(fixture)
        #expect(fixture.server.validation.modulesAnalysed == 4)

        // A module that comes is a new project shape: discovered again, every module checked.
        try fixture.write("return 1\n", to: "Sources/extra.lua")
        fixture.server.project.rescan()
        let third = try await Self.page(fixture)
        #expect(third.diagnostics.map(\.code) == Self.validated(fixture))
        #expect(fixture.server.validation.modulesAnalysed == 8)
    }

    @Test func anEditOfTheProjectFileThatServesNothingNewIsSeen() async throws {
        let fixture = try await LiveFixture()
        defer { Task { await fixture.stop() } }
        try fixture.write(
            "return { text = getResource('hello', 'txt'), extra = undefinedThing }\n", to: "Sources/greeting.lua")
        fixture.server.project.rescan()
        #expect(try await Self.page(fixture).diagnostics.contains { $0.code == "FP405" })
        // Declaring the global changes what validate reports, not what serve serves.
        try fixture.write(
            #"{"name": "Live", "identifier": "com.example.live", "version": "1.0.0", "startModule": "main", "globals": ["undefinedThing"]}"#,
            to: "flowpkg.json")
        let after = try await Self.page(fixture)
        #expect(!after.diagnostics.contains { $0.code == "FP405" })
        #expect(after.diagnostics.map(\.code) == Self.validated(fixture))
    }

    @Test func onlyAChangeOfModuleContentIsAnUpdate() throws {
        let module = try LiveManifest.Module(name: ModuleName("a"), path: "a.lua", tag: "1", file: "Sources/a.lua")
        let before = LiveManifest(
            identifier: "com.example.x", name: "X", revision: 1, startModule: nil, modules: [module], resources: [])
        var edited = before
        edited.revision = 2
        edited.modules[0].tag = "2"
        #expect(ValidationCache.changedModules(from: before, to: edited) == [try ModuleName("a")])
        var grown = edited
        grown.modules.append(
            try LiveManifest.Module(name: ModuleName("b"), path: "b.lua", tag: "3", file: "Sources/b.lua"))
        #expect(ValidationCache.changedModules(from: before, to: grown) == nil)
        var renamed = edited
        renamed.identifier = "com.example.y"
        #expect(ValidationCache.changedModules(from: before, to: renamed) == nil)
    }
}
