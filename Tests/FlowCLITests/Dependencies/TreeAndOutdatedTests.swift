import FlowTestSupport
import Foundation
import Testing

/// `flowpkg tree` and `flowpkg outdated` (issue 46), on a rocks server in a folder.
@Suite(.serialized) struct TreeAndOutdatedTests {
    @Test func treeDrawsTheLockAndOutdatedNamesNewerVersions() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let server = try LocalRocksServer(in: scratch.url)
        try DependenciesEndToEndTests.publishGreet(server, "1.0-1")
        try server.publishPure(
            "needy", "1.0-1", modules: ["needy": ("needy.lua", Data("return require('greet')\n".utf8))],
            dependencies: ["greet >= 1.0"])
        try server.publishC("cthing", "1.0-1", module: "cthing")
        let app = scratch.url.appendingPathComponent("app")
        try FileManager.default.createDirectory(
            at: app.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data(
            """
            {"name": "app", "identifier": "com.example.app", "version": "0.1.0", "startModule": "Main",
             "sources": ["Sources"], "rocksServers": ["../rocks"], "externalModules": ["cthing"]}

            """.utf8
        ).write(to: app.appendingPathComponent("flowpkg.json"))
        try Data("print(require('needy').version)\n".utf8).write(to: app.appendingPathComponent("Sources/Main.lua"))
        let cache = scratch.url.appendingPathComponent("cache")
        func run(_ arguments: [String]) throws -> FlowpkgProcess.Result {
            try DependenciesEndToEndTests.flowpkg(arguments, in: app, cache: cache)
        }
        var result = try run(["tree"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("there is no flowpkg.lock"), "\(result.stderr)")

        #expect(try run(["add", "needy"]).status == 0)
        #expect(try run(["add", "cthing"]).status == 0)
        result = try run(["tree"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "app 0.1.0", "\(result.stdout)")
        #expect(lines.contains("├── cthing 1.0-1 (provided by the host)"), "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("└── needy 1.0-1 (rock ") }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("    └── greet 1.0-1 (rock ") }, "\(result.stdout)")
        result = try run(["tree", "--format", "json"])
        let nodes = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        #expect(nodes?.map { $0["name"] as? String } == ["cthing", "needy"], "\(result.stdout)")

        result = try run(["outdated"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("every locked rock is the newest"), "\(result.stdout)")
        try DependenciesEndToEndTests.publishGreet(server, "1.1-1")
        result = try run(["outdated"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "greet 1.0-1 -> 1.1-1 (needed by another)\n", "\(result.stdout)")
    }
}
