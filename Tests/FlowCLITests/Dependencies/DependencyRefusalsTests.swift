import FlowTestSupport
import Foundation
import Testing

/// What the dependency commands refuse, end to end, beyond the bad input of
/// DependenciesEndToEndTests: `export --locked` without a lock or with a stale one, a package
/// whose entry fails its hash, a binary rock that installs a C library; and a rocks server
/// reached by URL over a real socket.
@Suite(.serialized) struct DependencyRefusalsTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func projectFile(_ name: String, start: String? = "Main", dependencies: String = "", extra: String = "") -> String {
        """
        {"name": "\(name)", "identifier": "com.example.\(name)", "version": "0.1.0", \
        \(start.map { "\"startModule\": \"\($0)\", " } ?? "")"sources": ["Sources"], "resources": []\
        \(dependencies.isEmpty ? "" : ", \"dependencies\": {\(dependencies)}")\(extra)}

        """
    }

    @Test func exportLockedRefusesAMissingOrStaleLockAndWritesNothing() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let kit = scratch.url.appendingPathComponent("kit")
        let charts = scratch.url.appendingPathComponent("charts")
        let app = scratch.url.appendingPathComponent("app")
        try write(projectFile("kit", start: nil), to: kit.appendingPathComponent("flowpkg.json"))
        try write("return { word = 'kit' }\n", to: kit.appendingPathComponent("Sources/Kit.lua"))
        try write(projectFile("charts", start: nil), to: charts.appendingPathComponent("flowpkg.json"))
        try write("return { word = 'charts' }\n", to: charts.appendingPathComponent("Sources/Charts.lua"))
        try write(
            projectFile("app", dependencies: #""kit": {"path": "../kit"}"#),
            to: app.appendingPathComponent("flowpkg.json"))
        try write("print(require('Kit').word)\n", to: app.appendingPathComponent("Sources/Main.lua"))
        let lockFile = app.appendingPathComponent("flowpkg.lock")
        let output = scratch.url.appendingPathComponent("app.luapkg")

        // No lock at all.
        for flags in [["--locked"], ["--offline"], ["--locked", "--offline"]] {
            let result = try FlowpkgProcess.run(["export"] + flags + ["-o", output.path], in: app)
            #expect(result.status == 1, "\(flags)")
            #expect(
                result.stdout.contains("[FP802]") && result.stdout.contains("there is no flowpkg.lock"),
                "\(result.stdout)")
            // Named as the user sees it, relative to the folder export ran in.
            #expect(result.stdout.hasPrefix("flowpkg.lock: error: "), "\(result.stdout)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
            #expect(!FileManager.default.fileExists(atPath: lockFile.path))
        }
        #expect(try FlowpkgProcess.run(["lock"], in: app).status == 0)
        #expect(try FlowpkgProcess.run(["export", "--locked", "-o", output.path], in: app).status == 0)
        try FileManager.default.removeItem(at: output)

        // flowpkg.json asks for more than the lock pins: named, and the lock is left as it was.
        let locked = try Data(contentsOf: lockFile)
        try write(
            projectFile("app", dependencies: #""kit": {"path": "../kit"}, "charts": {"path": "../charts"}"#),
            to: app.appendingPathComponent("flowpkg.json"))
        var result = try FlowpkgProcess.run(["export", "--locked", "-o", output.path], in: app)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("[FP802]") && result.stdout.contains("does not pin the dependency 'charts'")
                && result.stdout.contains("--locked forbids changing it"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(try Data(contentsOf: lockFile) == locked)
        // Without --locked, export locks again and goes on.
        result = try FlowpkgProcess.run(["export", "-o", output.path], in: app)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOf: lockFile, encoding: .utf8).contains("\"charts\""))
    }

    /// A .luapkg that is a good zip, but one module's bytes are not those its manifest pins.
    @Test func aPackageWhoseModuleFailsItsHashIsRefused() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let lib = scratch.url.appendingPathComponent("lib")
        try write(projectFile("lib", start: nil), to: lib.appendingPathComponent("flowpkg.json"))
        try write("return { word = 'lib' }\n", to: lib.appendingPathComponent("Sources/Lib.lua"))
        let package = scratch.url.appendingPathComponent("lib.luapkg")
        #expect(try FlowpkgProcess.run(["export", "-o", package.path], in: lib).status == 0)
        // Rewritten with Python's zipfile, entry order kept, one module changed.
        try LocalRocksServer.program(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sys, zipfile
                source, target = sys.argv[1], sys.argv[2]
                with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
                    for info in old.infolist():
                        data = old.read(info.filename)
                        if info.filename == "modules/Lib.lua":
                            data = b"return { word = 'changed' }\\n"
                        new.writestr(info, data)
                """,
                package.path, scratch.url.appendingPathComponent("changed.luapkg").path,
            ], in: scratch.url)
        let app = scratch.url.appendingPathComponent("app")
        try write(projectFile("app"), to: app.appendingPathComponent("flowpkg.json"))
        try write("print(require('Lib').word)\n", to: app.appendingPathComponent("Sources/Main.lua"))
        let before = try Data(contentsOf: app.appendingPathComponent("flowpkg.json"))
        let result = try FlowpkgProcess.run(["add", "--package", "../changed.luapkg"], in: app)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("[FP810]") && result.stderr.contains("changed.luapkg")
                && result.stderr.contains("Lib.lua"), "\(result.stderr)")
        #expect(try Data(contentsOf: app.appendingPathComponent("flowpkg.json")) == before)
        #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent("flowpkg.lock").path))
    }

    /// A binary rock (compiled by whoever packed it) installs a C library under lib/: refused
    /// by name, unless its C module is the host's.
    @Test func aBinaryRockWithALibFileIsRefusedUnlessTheHostProvidesIt() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let server = try LocalRocksServer(in: scratch.url)
        try server.publishBinary("fastmath", "1.0-1", module: "fastmath")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: server.folder.path).contains {
                $0.hasPrefix("fastmath-1.0-1.") && !$0.hasSuffix(".src.rock") && $0.hasSuffix(".rock")
            })
        let cache = scratch.url.appendingPathComponent("cache")
        let app = scratch.url.appendingPathComponent("app")
        try write(
            projectFile("app", extra: #", "rocksServers": ["../rocks"]"#),
            to: app.appendingPathComponent("flowpkg.json"))
        try write("print('app')\n", to: app.appendingPathComponent("Sources/Main.lua"))
        let before = try Data(contentsOf: app.appendingPathComponent("flowpkg.json"))
        var result = try DependenciesEndToEndTests.flowpkg(["add", "fastmath"], in: app, cache: cache)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("[FP808]") && result.stderr.contains("fastmath 1.0-1")
                && result.stderr.contains("'fastmath'")
                && result.stderr.contains("\"externalModules\": [\"fastmath\"]"),
            "\(result.stderr)")
        #expect(try Data(contentsOf: app.appendingPathComponent("flowpkg.json")) == before)

        try write(
            projectFile("app", extra: #", "rocksServers": ["../rocks"], "externalModules": ["fastmath"]"#),
            to: app.appendingPathComponent("flowpkg.json"))
        result = try DependenciesEndToEndTests.flowpkg(["add", "fastmath"], in: app, cache: cache)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("fastmath 1.0-1 provided by the host (fastmath)"), "\(result.stdout)")
    }

    /// A rocks server given by URL: LuaRocks fetches over HTTP from a real server on 127.0.0.1,
    /// and once locked, the export needs neither the server nor luarocks.
    @Test func aRocksServerByURL() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let server = try LocalRocksServer(in: scratch.url)
        try DependenciesEndToEndTests.publishGreet(server, "1.0-1")
        let http = try HTTPFolderServer(serving: server.folder, in: scratch.url)
        defer { http.stop() }
        let url = http.url
        let cache = scratch.url.appendingPathComponent("cache")
        let app = scratch.url.appendingPathComponent("app")
        try write(
            projectFile("app", extra: ", \"rocksServers\": [\"\(url)\"]"),
            to: app.appendingPathComponent("flowpkg.json"))
        try write("print(require('greet').version)\n", to: app.appendingPathComponent("Sources/Main.lua"))
        var result = try DependenciesEndToEndTests.flowpkg(["add", "greet"], in: app, cache: cache)
        #expect(result.status == 0, "\(result.stderr)")
        let lock = try String(contentsOf: app.appendingPathComponent("flowpkg.lock"), encoding: .utf8)
        #expect(lock.contains("\"origin\" : \"\(url)/greet-1.0-1.all.rock\""), "\(lock)")
        #expect(try DependenciesEndToEndTests.flowpkg(["run", "."], in: app, cache: cache).stdout == "1.0-1\n")
        http.stop()
        result = try DependenciesEndToEndTests.flowpkg(
            ["export", "--locked", "--offline", "-o", "../app.luapkg"], in: app, cache: cache,
            environment: ["PATH": "/nonexistent"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
