import FlowDependencies
import FlowLanguageServer
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// `flowpkg lsp` sees a project's dependencies: a require of a dependency's module is no
/// FP401, and go-to-definition opens the dependency's own file.
@Suite struct DependencyNavigationTests {
    @Test func aPathDependencyResolvesAndDefinitionOpensItsFile() throws {
        let base = try Scratch("lsp-deps").url
            .standardizedFileURL
        defer { try? FileManager.default.removeItem(at: base) }
        func write(_ path: String, _ text: String) throws {
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write(
            "ui-kit/flowpkg.json",
            #"{"name": "ui-kit", "identifier": "com.example.uikit", "version": "0.2.0", "sources": ["Sources"], "resources": []}"#
        )
        try write("ui-kit/Sources/TextKit.lua", "return { wrap = function(s) return s end }\n")
        try write(
            "app/flowpkg.json",
            #"{"name": "app", "identifier": "com.example.app", "version": "1.0.0", "startModule": "Main", "resources": [], "dependencies": {"ui-kit": {"path": "../ui-kit"}}}"#
        )
        let main = "local TextKit = require \"TextKit\"\nprint(TextKit.wrap(\"x\"))\n"
        try write("app/Sources/Main.lua", main)
        let app = base.appendingPathComponent("app")
        let locked = DependencyLocking.lock(projectAt: app, options: DependencyOptions())
        #expect(locked.succeeded, "\(locked.diagnostics)")

        let server = ServerConnection()
        try server.initialize(root: app)
        let mainURL = app.appendingPathComponent("Sources/Main.lua")
        server.open(mainURL, main)
        let diagnostics = try server.diagnostics(for: mainURL)
        #expect(!diagnostics.contains { ($0["code"] as? String) == "FP401" }, "\(diagnostics)")
        let response = try server.request("textDocument/definition", server.position(mainURL, line: 0, character: 27))
        let uris = (response["result"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String }
        #expect(uris == [base.appendingPathComponent("ui-kit/Sources/TextKit.lua").absoluteString])
        _ = server.closeInput()
    }

    /// A rock's module opens under its own path (`…/penlight-1.13.1-1-…/pl/pretty.lua`), not
    /// under the cache's hash, and validation names that path for a problem in it.
    @Test func aRockModuleOpensUnderItsModulePath() throws {
        let base = try Scratch("lsp-rock").url
            .standardizedFileURL
        defer {
            // The readable copies are read-only; their folders are not, so they go with the rest.
            try? FileManager.default.removeItem(at: base)
        }
        let app = base.appendingPathComponent("app")
        try FileManager.default.createDirectory(
            at: app.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data(
            #"{"name": "app", "identifier": "com.example.app", "version": "1.0.0", "startModule": "Main", "resources": [], "dependencies": {"penlight": ">= 1.13"}}"#
                .utf8
        ).write(to: app.appendingPathComponent("flowpkg.json"))
        let main = "local pretty = require \"pl.pretty\"\nprint(pretty.write({}))\nreturn require \"pl.broken\"\n"
        try Data(main.utf8).write(to: app.appendingPathComponent("Sources/Main.lua"))
        // A lock as `flowpkg lock` writes it, and the cache holding the files it pins.
        let cache = FileCache(root: base.appendingPathComponent("cache").path)
        let pretty = Array("return { write = function(t) return '{}' end }\n".utf8)
        let broken = Array("return {\n".utf8)
        let rockSHA = try cache.store(Array("the rock file".utf8))
        let modules = [
            LockedModule(
                name: "pl.pretty", path: "pl/pretty.lua", size: Int64(pretty.count), sha256: try cache.store(pretty)),
            LockedModule(
                name: "pl.broken", path: "pl/broken.lua", size: Int64(broken.count), sha256: try cache.store(broken)),
        ]
        try Lockfile(dependencies: [
            LockedDependency(
                kind: "rock", name: "penlight", version: "1.13.1-1", origin: "penlight-1.13.1-1.all.rock",
                sha256: rockSHA, requested: ">= 1.13", dependencies: [], modules: modules)
        ]).write(to: app.appendingPathComponent("flowpkg.lock").path)
        let readable = cache.root + "/sources/penlight-1.13.1-1-\(rockSHA.prefix(8))/pl/pretty.lua"

        var options = LanguageServerOptions(concurrency: 2)
        options.dependencies.cache = cache
        let server = ServerConnection(options: options)
        try server.initialize(root: app)
        let mainURL = app.appendingPathComponent("Sources/Main.lua")
        server.open(mainURL, main)
        let diagnostics = try server.diagnostics(for: mainURL)
        #expect(!diagnostics.contains { ($0["code"] as? String) == "FP401" }, "\(diagnostics)")
        let response = try server.request("textDocument/definition", server.position(mainURL, line: 0, character: 27))
        let uris = (response["result"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String }
        #expect(uris == [URL(fileURLWithPath: readable).absoluteString])
        // The file is the locked one, and an editor is told it is not to be edited.
        #expect(FileManager.default.contents(atPath: readable).map { [UInt8]($0) } == pretty)
        let attributes = try FileManager.default.attributesOfItem(atPath: readable)
        #expect((attributes[.posixPermissions] as? Int) == 0o444)
        _ = server.closeInput()

        // validate names the readable path for a problem inside the dependency.
        var validation = ValidationOptions()
        validation.dependencies.cache = cache
        let report = Validator.validate(projectAt: app, options: validation)
        let inBroken = report.diagnostics.filter { $0.file?.hasSuffix("/pl/broken.lua") == true }
        #expect(!inBroken.isEmpty, "\(report.diagnostics)")
        #expect(
            inBroken.allSatisfy {
                $0.file == cache.root + "/sources/penlight-1.13.1-1-\(rockSHA.prefix(8))/pl/broken.lua"
            })
        #expect(!report.diagnostics.contains { $0.file?.contains("/files/") == true }, "\(report.diagnostics)")
    }
}
