import FlowTestSupport
import Foundation
import Testing

/// A rocks server on loopback whose manifest is `while true do end` (issue 43, item 5): luarocks
/// runs it as Lua and never ends. `lock` stops it at its deadline; SIGTERM to flowpkg stops it
/// at once; either way no luarocks and no scratch file of flowpkg's is left behind.
@Suite(.serialized) struct HostileRocksServerTests {
    struct Hostile {
        let scratch: Scratch
        let app: URL
        let http: BackgroundFlowpkg

        init() throws {
            scratch = try Scratch("cli")
            let served = scratch.url.appendingPathComponent("served")
            try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
            for name in ["manifest-5.4", "manifest-5.3", "manifest"] {
                try Data("while true do end\n".utf8).write(to: served.appendingPathComponent(name))
            }
            http = try BackgroundFlowpkg(
                ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", served.path],
                in: scratch.url, executable: URL(fileURLWithPath: "/usr/bin/python3"))
            var port: String?
            http.waitFor { stdout, _ in
                port = stdout.split(separator: "\n").first { $0.hasPrefix("Serving HTTP on ") }
                    .flatMap { $0.split(separator: " ").dropFirst(5).first.map(String.init) }
                return port != nil
            }
            let url = "http://127.0.0.1:\(try #require(port, "\(http.stdout)\(http.stderr)"))"
            app = scratch.url.appendingPathComponent("app")
            try FileManager.default.createDirectory(
                at: app.appendingPathComponent("Sources"), withIntermediateDirectories: true)
            try Data(
                """
                {"name": "app", "identifier": "com.example.app", "version": "0.1.0", "startModule": "Main",
                 "sources": ["Sources"], "resources": [], "environment": "lua",
                 "rocksServers": ["\(url)"], "dependencies": {"anything": ">= 1.0"}}

                """.utf8
            ).write(to: app.appendingPathComponent("flowpkg.json"))
            try Data("print('app')\n".utf8).write(to: app.appendingPathComponent("Sources/Main.lua"))
        }

        func stop() {
            // SIGKILL: the test runner's threads block SIGTERM, and a child inherits the mask.
            if http.process.isRunning { kill(http.process.processIdentifier, SIGKILL) }
            http.process.waitUntilExit()
            scratch.remove()
        }
    }

    /// Processes whose command line holds `text`.
    static func processes(holding text: String) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid != getpid(),
                let data = FileManager.default.contents(atPath: "/proc/\(name)/cmdline")
            else { return nil }
            return String(decoding: data, as: UTF8.self).contains(text) ? pid : nil
        }
    }

    /// What flowpkg process `pid` left in the temporary folder.
    static func scratchFiles(of pid: Int32) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
        return names.filter { $0.hasPrefix("flowpkg-resolve-\(pid)-") || $0.hasPrefix("flowpkg-run-\(pid)-") }
    }

    @Test func lockStopsLuaRocksAtItsDeadline() throws {
        let hostile = try Hostile()
        defer { hostile.stop() }
        let lock = try BackgroundFlowpkg(
            ["lock"], in: hostile.app,
            environment: ["FLOWPKG_LUAROCKS_TIMEOUT": "2", "FLOWPKG_CACHE": hostile.scratch.url.path + "/cache"])
        lock.process.waitUntilExit()
        let pid = lock.process.processIdentifier
        #expect(lock.process.terminationStatus == 1, "\(lock.stdout)\(lock.stderr)")
        let said = lock.stdout + lock.stderr
        #expect(said.contains("[FP812]") && said.contains("did not finish within 2 seconds"), "\(said)")
        #expect(Self.processes(holding: "flowpkg-resolve-\(pid)-").isEmpty, "luarocks outlived flowpkg lock")
        #expect(Self.scratchFiles(of: pid).isEmpty, "\(Self.scratchFiles(of: pid))")
    }

    @Test func sigtermStopsLuaRocksAndRemovesTheScratchFiles() throws {
        let hostile = try Hostile()
        defer { hostile.stop() }
        let lock = try BackgroundFlowpkg(
            ["lock"], in: hostile.app, environment: ["FLOWPKG_CACHE": hostile.scratch.url.path + "/cache"])
        let pid = lock.process.processIdentifier
        // Waits for the event: luarocks running (its --tree is in flowpkg's scratch folder).
        #expect(
            lock.waitFor(timeout: 60) { _, _ in !Self.processes(holding: "flowpkg-resolve-\(pid)-").isEmpty },
            "\(lock.stdout)\(lock.stderr)")
        kill(pid, SIGTERM)
        lock.process.waitUntilExit()
        #expect(lock.process.terminationStatus == 128 + SIGTERM, "\(lock.stdout)\(lock.stderr)")
        var leftover = Self.processes(holding: "flowpkg-resolve-\(pid)-")
        // SIGTERM reached luarocks' group; it may take a moment to go.
        for _ in 0..<200 where !leftover.isEmpty {
            usleep(10_000)
            leftover = Self.processes(holding: "flowpkg-resolve-\(pid)-")
        }
        #expect(leftover.isEmpty, "luarocks outlived flowpkg lock: \(leftover)")
        #expect(Self.scratchFiles(of: pid).isEmpty, "\(Self.scratchFiles(of: pid))")
    }
}
