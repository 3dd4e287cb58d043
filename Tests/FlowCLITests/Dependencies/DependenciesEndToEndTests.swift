import FlowTestSupport
import Foundation
import Testing

/// Dependencies end to end, against a rocks server in a folder that the test builds from
/// Debian's Lua files with luarocks itself: rocks (pure and C), a lua-library project by path,
/// a .luapkg library; the lock, the cache, vendor/, --locked and --offline.
@Suite(.serialized) struct DependenciesEndToEndTests {
    /// The published server: inspect, dkjson, penlight (needing luafilesystem), a C
    /// luafilesystem, and greet 1.0-1.
    static func makeServer(in scratch: URL) throws -> LocalRocksServer {
        let server = try LocalRocksServer(in: scratch)
        try server.publishPure(
            "inspect", "3.1.1-1",
            modules: ["inspect": ("inspect.lua", try Data(contentsOf: LocalRocksServer.debianLuaFile("inspect.lua")))])
        try server.publishPure(
            "dkjson", "2.6-1",
            modules: ["dkjson": ("dkjson.lua", try Data(contentsOf: LocalRocksServer.debianLuaFile("dkjson.lua")))])
        var penlight: [String: (path: String, contents: Data)] = [:]
        let pl = URL(fileURLWithPath: "/usr/share/lua/5.1/pl")
        for file in try FileManager.default.contentsOfDirectory(atPath: pl.path) where file.hasSuffix(".lua") {
            let stem = String(file.dropLast(4))
            penlight[stem == "init" ? "pl" : "pl." + stem] = (
                "pl/" + file, try Data(contentsOf: pl.appendingPathComponent(file))
            )
        }
        try server.publishPure("penlight", "1.13.1-1", modules: penlight, dependencies: ["luafilesystem >= 1.6.0"])
        try server.publishC("luafilesystem", "1.8.0-1", module: "lfs")
        try publishGreet(server, "1.0-1")
        return server
    }

    static func publishGreet(_ server: LocalRocksServer, _ version: String) throws {
        try server.publishPure(
            "greet", version,
            modules: ["greet": ("greet.lua", Data("return { version = \"\(version)\" }\n".utf8))])
    }

    static func flowpkg(_ arguments: [String], in folder: URL, cache: URL, environment: [String: String] = [:]) throws
        -> FlowpkgProcess.Result
    {
        var env = environment
        env["FLOWPKG_CACHE"] = cache.path
        return try FlowpkgProcess.run(arguments, in: folder, environment: env)
    }

    static func read(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    @Test func anAppBuiltFromRocksAPathProjectAndAPackage() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let server = try Self.makeServer(in: scratch.url)
        let cache = scratch.url.appendingPathComponent("cache")
        func run(_ arguments: [String], in folder: URL, _ environment: [String: String] = [:]) throws
            -> FlowpkgProcess.Result
        {
            try Self.flowpkg(arguments, in: folder, cache: cache, environment: environment)
        }

        // The app, a lua-library project beside it, and a library exported as a package.
        #expect(try run(["new", "app", "--template", "console-app"], in: scratch.url).status == 0)
        #expect(try run(["new", "uikit", "--template", "lua-library"], in: scratch.url).status == 0)
        #expect(try run(["new", "charts", "--template", "lua-library"], in: scratch.url).status == 0)
        let charts = scratch.url.appendingPathComponent("charts")
        try FileManager.default.removeItem(at: charts.appendingPathComponent("Sources/TextKit"))
        try Data("return { bar = function(n) return string.rep('#', n) end }\n".utf8).write(
            to: charts.appendingPathComponent("Sources/Charts.lua"))
        let exported = try run(["export", "-o", "../charts-0.1.0.luapkg"], in: charts)
        #expect(exported.status == 0, "\(exported.stdout)\(exported.stderr)")

        let app = scratch.url.appendingPathComponent("app")
        let projectFile = app.appendingPathComponent("flowpkg.json")
        // Written by hand, with its own spacing: `add` must keep every byte of it.
        let original = """
            {
              "name":    "app",
              "identifier": "com.example.app",
              "version": "0.1.0",
              "startModule": "Main",
              "rocksServers": ["../rocks"],
              "externalModules": [],
              "environment": "lua"
            }

            """
        try Data(original.utf8).write(to: projectFile)

        var result = try run(["add", "inspect", "~> 3.1"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.read(projectFile)
                == original.replacingOccurrences(
                    of: "\"environment\": \"lua\"\n",
                    with: "\"environment\": \"lua\",\n  \"dependencies\": {\n    \"inspect\": \"~> 3.1\"\n  }\n"))
        result = try run(["add", "dkjson"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.read(projectFile).contains("\"dkjson\": \">= 2.6, < 3\""))
        #expect(try run(["add", "greet"], in: app).status == 0)

        // penlight needs luafilesystem, whose C module is refused before anything compiles.
        let beforePenlight = Self.read(projectFile)
        let lockBefore = Self.read(app.appendingPathComponent("flowpkg.lock"))
        result = try run(["add", "penlight", ">= 1.13"], in: app)
        #expect(result.status == 1)
        #expect(result.stderr.contains("[FP808]"), "\(result.stderr)")
        #expect(result.stderr.contains("luafilesystem 1.8.0-1"))
        #expect(result.stderr.contains("'lfs'"))
        #expect(result.stderr.contains("\"externalModules\": [\"lfs\"]"))
        #expect(Self.read(projectFile) == beforePenlight)
        #expect(Self.read(app.appendingPathComponent("flowpkg.lock")) == lockBefore)
        try Data(
            beforePenlight.replacingOccurrences(of: "\"externalModules\": []", with: "\"externalModules\": [\"lfs\"]")
                .utf8
        )
        .write(to: projectFile)
        result = try run(["add", "penlight", ">= 1.13"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("luafilesystem 1.8.0-1 provided by the host (lfs)"))

        result = try run(["add", "--path", "../uikit"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.read(projectFile).contains("\"uikit\": {\"path\": \"../uikit\"}"))
        result = try run(["add", "--package", "../charts-0.1.0.luapkg"], in: app)
        #expect(result.status == 0, "\(result.stderr)")

        let lock = Self.read(app.appendingPathComponent("flowpkg.lock"))
        for word in [
            "\"kind\" : \"rock\"", "\"kind\" : \"path\"", "\"kind\" : \"package\"", "\"version\" : \"1.0-1\"",
            "greet-1.0-1.all.rock", "\"luafilesystem >= 1.6.0\"", "\"path\" : \"pl/tablex.lua\"",
        ] {
            #expect(lock.contains(word), "\(word)")
        }

        try Data(
            """
            local inspect = require "inspect"
            local json = require "dkjson"
            local tablex = require "pl.tablex"
            local TextKit = require "TextKit"
            local Charts = require "Charts"
            local greet = require "greet"
            print(inspect({ a = 1, b = { 2, 3 } }))
            print(json.encode({ 1, 2, 3 }))
            print(tablex.size({ x = 1, y = 2 }))
            print(type(TextKit.wrap), Charts.bar(3), greet.version)

            """.utf8
        ).write(to: app.appendingPathComponent("Sources/Main.lua"))
        try FileManager.default.removeItem(at: app.appendingPathComponent("Sources/Banner.lua"))
        try FileManager.default.removeItem(at: app.appendingPathComponent("Resources"))

        let validated = try run(["validate"], in: app)
        #expect(validated.status == 0, "\(validated.stdout)")
        #expect(!validated.stdout.contains("FP401"))
        let fromFolder = try run(["run", "."], in: app)
        #expect(fromFolder.status == 0, "\(fromFolder.stderr)")
        #expect(
            fromFolder.stdout.contains("[1,2,3]") && fromFolder.stdout.contains("###\t1.0-1"), "\(fromFolder.stdout)")
        result = try run(["export", "-o", "../app-online.luapkg"], in: app)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let online = try Data(contentsOf: scratch.url.appendingPathComponent("app-online.luapkg"))
        let fromPackage = try run(["run", "../app-online.luapkg"], in: app)
        #expect(fromPackage.stdout == fromFolder.stdout)
        let manifest = try LocalRocksServer.program(
            "/usr/bin/unzip", ["-p", "../app-online.luapkg", "manifest.json"], in: app)
        #expect(manifest.contains("{\"name\": \"penlight\", \"kind\": \"rock\", \"version\": \"1.13.1-1\""))
        #expect(manifest.contains("{\"name\": \"uikit\", \"kind\": \"path\""))

        // Stock lua5.4 with the vendored files on its path prints the same.
        result = try run(["vendor"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        let vendor = app.appendingPathComponent("vendor").path
        let luaPath = [
            "Sources", "\(vendor)/inspect", "\(vendor)/dkjson", "\(vendor)/penlight", "\(vendor)/greet",
            "\(vendor)/charts", "../uikit/Sources",
        ].flatMap { ["\($0)/?.lua", "\($0)/?/init.lua"] }.joined(separator: ";")
        let stock = try LocalRocksServer.program(
            "/usr/bin/lua5.4", ["-e", "package.path = '\(luaPath)'", "Sources/Main.lua"], in: app)
        #expect(stock == fromFolder.stdout)

        // The server gone, no luarocks on the PATH: the same bytes, from the cache, then from vendor/ alone.
        try FileManager.default.moveItem(at: server.folder, to: scratch.url.appendingPathComponent("rocks-away"))
        try FileManager.default.removeItem(at: app.appendingPathComponent("vendor"))
        result = try run(
            ["export", "--locked", "--offline", "-o", "../app-offline.luapkg"], in: app, ["PATH": "/nonexistent"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("app-offline.luapkg")) == online)
        try FileManager.default.moveItem(at: scratch.url.appendingPathComponent("rocks-away"), to: server.folder)
        #expect(try run(["vendor"], in: app).status == 0)
        result = try Self.flowpkg(
            ["export", "--locked", "--offline", "-o", "../app-vendored.luapkg"], in: app,
            cache: scratch.url.appendingPathComponent("empty-cache"), environment: ["PATH": "/nonexistent"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("app-vendored.luapkg")) == online)
        try FileManager.default.removeItem(at: app.appendingPathComponent("vendor"))

        // A tampered cached file is refused, naming it and both hashes; nothing is written.
        let inspectSHA = try #require(Self.lockedSHA(of: "inspect.lua", in: lock))
        let cached = cache.appendingPathComponent("files/\(inspectSHA.prefix(2))/\(inspectSHA)")
        let pristine = try Data(contentsOf: cached)
        try (pristine + Data("-- changed\n".utf8)).write(to: cached)
        result = try run(["export", "--locked", "--offline", "-o", "../tampered.luapkg"], in: app)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[FP803]"), "\(result.stdout)")
        #expect(result.stdout.contains(cached.path) && result.stdout.contains("expected SHA-256 \(inspectSHA)"))
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("tampered.luapkg").path))
        // Online too, and in vendor/.
        result = try run(["export", "-o", "../tampered.luapkg"], in: app)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[FP803]") && result.stdout.contains(cached.path), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("tampered.luapkg").path))
        try pristine.write(to: cached)
        #expect(try run(["vendor"], in: app).status == 0)
        let vendored = app.appendingPathComponent("vendor/inspect/inspect.lua")
        try (pristine + Data("-- changed\n".utf8)).write(to: vendored)
        result = try run(["export", "--locked", "--offline", "-o", "../tampered.luapkg"], in: app)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("[FP803]") && result.stdout.contains(vendored.path)
                && result.stdout.contains("expected SHA-256 \(inspectSHA)"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent("tampered.luapkg").path))
        try FileManager.default.removeItem(at: app.appendingPathComponent("vendor"))

        // greet 1.1 is published; lock keeps 1.0 until update.
        try Self.publishGreet(server, "1.1-1")
        #expect(try run(["lock"], in: app).status == 0)
        #expect(try run(["run", "."], in: app).stdout.contains("1.0-1"))
        result = try run(["update", "greet"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("greet 1.0-1 -> 1.1-1"), "\(result.stdout)")
        #expect(try run(["run", "."], in: app).stdout.contains("###\t1.1-1"))
        #expect(Self.read(app.appendingPathComponent("flowpkg.lock")).contains("\"inspect\""))
        // `update` with no name moves everything, within the constraints: `add greet` recorded
        // ">= 1.0, < 2", so 1.2 is taken and 2.0 is not.
        try Self.publishGreet(server, "1.2-1")
        try Self.publishGreet(server, "2.0-1")
        result = try run(["update"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("greet 1.1-1 -> 1.2-1"), "\(result.stdout)")
        #expect(try run(["run", "."], in: app).stdout.contains("###\t1.2-1"))

        // An edited path dependency fails --locked, naming the file.
        let words = scratch.url.appendingPathComponent("uikit/Sources/TextKit/words.lua")
        try (try Data(contentsOf: words) + Data("-- edited\n".utf8)).write(to: words)
        result = try run(["export", "--locked", "-o", "../edited.luapkg"], in: app)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[FP814]") && result.stdout.contains("TextKit/words.lua"), "\(result.stdout)")
        #expect(try run(["lock"], in: app).status == 0)
        #expect(try run(["export", "--locked", "-o", "../edited.luapkg"], in: app).status == 0)

        // A module provided twice: the app's own inspect.lua beside the rock's.
        try Data("return {}\n".utf8).write(to: app.appendingPathComponent("Sources/inspect.lua"))
        result = try run(["validate"], in: app)
        #expect(result.status == 1)
        #expect(result.stdout.contains("[FP811]") && result.stdout.contains("'inspect'"), "\(result.stdout)")
        try FileManager.default.removeItem(at: app.appendingPathComponent("Sources/inspect.lua"))

        // remove edits flowpkg.json in place and the lock follows.
        result = try run(["remove", "dkjson"], in: app)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!Self.read(projectFile).contains("dkjson"))
        #expect(!Self.read(app.appendingPathComponent("flowpkg.lock")).contains("\"dkjson\""))
    }

    static func lockedSHA(of path: String, in lock: String) -> String? {
        guard let data = lock.data(using: .utf8),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let dependencies = root["dependencies"] as? [[String: Any]]
        else { return nil }
        for dependency in dependencies {
            for module in dependency["modules"] as? [[String: Any]] ?? [] where module["path"] as? String == path {
                return module["sha256"] as? String
            }
        }
        return nil
    }

    /// Each bad input: a clear message with its code, exit 1, flowpkg.json untouched.
    @Test func badInputLeavesTheProjectAsItWas() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let server = try LocalRocksServer(in: scratch.url)
        try Self.publishGreet(server, "1.0-1")
        let cache = scratch.url.appendingPathComponent("cache")
        #expect(
            try Self.flowpkg(["new", "app", "--template", "console-app"], in: scratch.url, cache: cache).status == 0)
        let app = scratch.url.appendingPathComponent("app")
        let projectFile = app.appendingPathComponent("flowpkg.json")
        let before = try Data(contentsOf: projectFile)
        try Data("not a package".utf8).write(to: scratch.url.appendingPathComponent("corrupt.luapkg"))

        let cases: [(arguments: [String], environment: [String: String], code: String, words: String)] = [
            (["add", "nosuchrock", "--rocks-server", "../rocks"], [:], "FP805", "no rock named 'nosuchrock'"),
            (["add", "greet", ">= 9", "--rocks-server", "../rocks"], [:], "FP806", "the servers have 1.0-1"),
            (["add", "--path", "../missing"], [:], "FP809", "there is no such folder"),
            (["add", "--package", "../corrupt.luapkg"], [:], "FP810", "corrupt.luapkg"),
            (
                ["add", "greet", "--rocks-server", "../rocks"], ["PATH": "/nonexistent"], "FP804",
                "apt-get install luarocks"
            ),
            (["add", "greet", "--rocks-server", "http://127.0.0.1:9/rocks"], [:], "FP807", "127.0.0.1:9"),
            (["add", "greet", "--rocks-server", "../no-such-server"], [:], "FP807", "no-such-server"),
            (["add", "greet", "latest"], [:], "FP801", "'latest'"),
        ]
        for item in cases {
            let result = try Self.flowpkg(item.arguments, in: app, cache: cache, environment: item.environment)
            #expect(result.status == 1, "\(item.arguments)")
            #expect(result.stderr.contains("[\(item.code)]"), "\(item.arguments): \(result.stderr)")
            #expect(result.stderr.contains(item.words), "\(item.arguments): \(result.stderr)")
            #expect(try Data(contentsOf: projectFile) == before, "\(item.arguments)")
            #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent("flowpkg.lock").path))
        }
        // A rock the server lacks is told apart from a server that cannot be reached.
        let missing = try Self.flowpkg(["add", "nosuchrock", "--rocks-server", "../rocks"], in: app, cache: cache)
        #expect(!missing.stderr.contains("cannot be read"))
    }
}
