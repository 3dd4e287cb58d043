import FlowTestSupport
import Foundation
import Testing

/// Dependencies a team can live with (issue 46): `add --rocks-server` recorded in flowpkg.json,
/// `add` on a listed dependency says "changed", a 0.x rock's default range, FP805 naming the
/// server searched, no absolute path in a lock made from a folder server, and a rock published
/// since the last look found at once.
@Suite(.serialized) struct RocksServerRecordTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func makeApp(in scratch: Scratch, servers: String = "") throws -> URL {
        let app = scratch.url.appendingPathComponent("app")
        try write(
            """
            {
              "name": "app",
              "identifier": "com.example.app",
              "version": "0.1.0",
              "startModule": "Main",
              "sources": ["Sources"]\(servers)
            }

            """, to: app.appendingPathComponent("flowpkg.json"))
        try write("print(require('greet').version)\n", to: app.appendingPathComponent("Sources/Main.lua"))
        return app
    }

    @Test func aServerGivenToAddIsRecordedAndUsedLater() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let server = try LocalRocksServer(in: scratch.url)
        try DependenciesEndToEndTests.publishGreet(server, "1.0-1")
        try server.publishPure("zero", "0.3.1-1", modules: ["zero": ("zero.lua", Data("return 0\n".utf8))])
        let cache = scratch.url.appendingPathComponent("cache")
        let app = try makeApp(in: scratch)
        func run(_ arguments: [String]) throws -> FlowpkgProcess.Result {
            try DependenciesEndToEndTests.flowpkg(arguments, in: app, cache: cache)
        }
        var result = try run(["add", "greet", "--rocks-server", "../rocks"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("added greet to flowpkg.json"), "\(result.stdout)")
        let projectFile = DependenciesEndToEndTests.read(app.appendingPathComponent("flowpkg.json"))
        #expect(projectFile.contains(#""rocksServers": ["../rocks"]"#), "\(projectFile)")
        #expect(projectFile.contains(#""greet": ">= 1.0, < 2""#), "\(projectFile)")
        // A lock made from a folder server names no path of this machine.
        let lock = DependenciesEndToEndTests.read(app.appendingPathComponent("flowpkg.lock"))
        #expect(!lock.contains(scratch.url.path) && !lock.contains("/rocks/"), "\(lock)")
        result = try run(["vendor"])
        #expect(result.stdout.contains("vendor/greet/ (1 file)"), "\(result.stdout)")

        // Later commands use the recorded server with no flag; a 0.x rock gets its minor line.
        result = try run(["add", "zero"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            DependenciesEndToEndTests.read(app.appendingPathComponent("flowpkg.json")).contains(
                #""zero": ">= 0.3, < 0.4""#))
        #expect(try run(["update"]).status == 0)

        // `add` on a listed dependency says what changed.
        result = try run(["add", "greet", ">= 1.0, < 1.1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("changed greet in flowpkg.json: rock '>= 1.0, < 2' -> rock '>= 1.0, < 1.1'"),
            "\(result.stdout)")

        // FP805 says where it looked.
        result = try run(["add", "nosuchrock"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("[FP805]") && result.stderr.contains("searched \(server.folder.path)"),
            "\(result.stderr)")
    }

    /// LuaRocks keeps a server's manifest for a minute in its own cache: a rock published since
    /// is found all the same, because each run has a cache of its own.
    @Test func aRockPublishedSinceTheLastLookIsFound() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let server = try LocalRocksServer(in: scratch.url)
        try DependenciesEndToEndTests.publishGreet(server, "1.0-1")
        let http = try HTTPFolderServer(serving: server.folder, in: scratch.url)
        defer { http.stop() }
        let url = http.url
        let cache = scratch.url.appendingPathComponent("cache")
        let app = try makeApp(in: scratch, servers: ",\n  \"rocksServers\": [\"\(url)\"]")
        // A HOME of the test's own: LuaRocks' shared cache starts empty, as on a fresh machine.
        let environment = ["HOME": scratch.url.appendingPathComponent("home").path]
        var result = try DependenciesEndToEndTests.flowpkg(
            ["add", "greet"], in: app, cache: cache, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        try server.publishPure("fresh", "1.0-1", modules: ["fresh": ("fresh.lua", Data("return 1\n".utf8))])
        result = try DependenciesEndToEndTests.flowpkg(
            ["add", "fresh"], in: app, cache: cache, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("+ fresh 1.0-1"), "\(result.stdout)")
    }
}
