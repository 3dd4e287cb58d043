import FlowProject
import Foundation
import Testing

/// `flowpkg lsp` sees a project's dependencies: a require of a dependency's module is no
/// FP401, and go-to-definition opens the dependency's own file.
@Suite struct DependencyNavigationTests {
    @Test func aPathDependencyResolvesAndDefinitionOpensItsFile() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowpkg-lsp-deps-\(UUID().uuidString)"
        )
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
}
