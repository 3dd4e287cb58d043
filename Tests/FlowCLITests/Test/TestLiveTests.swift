import FlowHTTP
import FlowLiveDevelopment
import FlowLiveServer
import FlowProject
import FlowRuntime
import FlowSupport
import FlowTestSupport
import Foundation
import Testing

/// `flowpkg test --live URL`: the built binary asks a real `LiveServer` on loopback to run the
/// project's specs inside a program that follows it; the program is a host launched here as an
/// app launches its package (`PackageLaunch` with the development monitor), which gives Lua a
/// function of its own. The token travels in the environment only.
@Suite(.serialized) struct TestLiveTests {
    static let hostSpec = """
        describe('in the app', function()
          it('calls what only the host registers', function()
            assert.are.equal(6, hostSum(1, 2, 3))
          end)
          it('sees no command line holding the token', function()
            assert.are.equal(0, commandLinesWithToken())
          end)
        end)
        """

    /// The project served, and a host following it with `hostSum` and `commandLinesWithToken`.
    final class Session: @unchecked Sendable {
        let project: TestCommandTests.Project
        let token = LiveServerOptions.generateToken()
        let server: LiveServer
        /// The host, unless the session has none.
        let running: LaunchedPackage?
        let events = Locked<[String]>([])
        /// What `commandLinesWithToken` found, each time a spec called it.
        let tokenSightings = Locked<[Int]>([])
        var url: String { "http://127.0.0.1:\(server.listeningPort ?? 0)" }

        init(specs: [String: String], host: Bool = true) throws {
            project = try TestCommandTests.Project(specs: specs)
            let events = self.events
            server = try LiveServer(
                projectAt: project.folder, options: LiveServerOptions(port: 0, token: token), log: { _ in },
                onEvents: { found in events.withLock { $0 += found.filter { $0.kind == .test }.map(\.text) } })
            try server.start()
            guard host else {
                running = nil
                return
            }
            let target = try RunTarget.open(project.folder, identifier: nil)
            let primary = try #require(target.loader.sources.last)
            var launch = PackageLaunch(primary: primary, name: "host")
            launch.startModule = target.startModule
            launch.live = LiveLaunch(
                configuration: .init(url: URL(string: "http://127.0.0.1:\(server.listeningPort ?? 0)")!, token: token),
                log: { _ in })
            let token = self.token, sightings = tokenSightings
            launch.prepare = { context in
                try context.setGlobal(
                    "hostSum",
                    .function(
                        LuaFunction { arguments in
                            var sum: Int64 = 0
                            for case .integer(let value) in arguments { sum += value }
                            return [.integer(sum)]
                        }))
                try context.setGlobal(
                    "commandLinesWithToken",
                    .function(
                        LuaFunction { _ in
                            let count = Self.commandLines().filter { $0.contains(token) }.count
                            sightings.withLock { $0.append(count) }
                            return [.integer(Int64(count))]
                        }))
            }
            running = try launch.run()
        }

        /// Every process's command line, its arguments joined by spaces.
        static func commandLines() -> [String] {
            let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter {
                Int($0) != nil
            }
            return pids.compactMap { pid in
                FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map {
                    String(decoding: $0.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
                }
            }
        }

        /// `flowpkg test ARGUMENTS` in the project, with `token` in FLOWPKG_LIVE_TOKEN; run again
        /// while the host's test channel is not yet open (when there is a host).
        func test(_ arguments: [String], token: String?) throws -> FlowpkgProcess.Result {
            var environment = ["FLOWPKG_CACHE": project.cache.path]
            if let token { environment["FLOWPKG_LIVE_TOKEN"] = token }
            let deadline = Date().addingTimeInterval(20)
            while true {
                let result = try FlowpkgProcess.run(["test"] + arguments, in: project.folder, environment: environment)
                if running == nil || !result.stderr.contains("no program is connected") || Date() > deadline {
                    return result
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }

        /// Waits (at most 10 seconds) until `condition` holds.
        func until(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            return condition()
        }

        private let hostStopped = Locked(false)

        /// Stops the host (once).
        func stopHost() {
            guard
                !hostStopped.withLock({ stopped in
                    defer { stopped = true }; return stopped
                })
            else { return }
            running?.stop()
        }

        func stop() {
            stopHost()
            server.stop()
            project.remove()
        }
    }

    @Test func aSpecCallingTheHostsFunctionPassesInTheProgramAndFailsWithoutIt() throws {
        let session = try Session(specs: ["spec/host_spec.lua": Self.hostSpec])
        defer { session.stop() }
        let local = try session.test([], token: nil)
        #expect(local.status == 1)
        #expect(local.stdout.contains("0 successes / 0 failures / 2 errors / 0 pending"), "\(local.stdout)")
        #expect(local.stdout.contains("hostSum"), "\(local.stdout)")

        let live = try session.test(["--live", session.url], token: session.token)
        #expect(live.status == 0, "\(live.stdout)\(live.stderr)")
        #expect(live.stdout.contains("2 successes / 0 failures / 0 errors / 0 pending"), "\(live.stdout)")
        #expect(live.stderr.contains("test: ran in com.example."), "\(live.stderr)")
        // The spec looked at every process's command line while the run was under way.
        #expect(session.tokenSightings.withLock { $0 } == [0])
        // The same run, line by line, in what the server hands on (serve's terminal, the page).
        let line = "test: spec/host_spec.lua: 2 successes / 0 failures / 0 errors / 0 pending"
        #expect(session.until { session.events.withLock { $0 }.contains { $0.hasSuffix(line) } })
        let page = try HTTPConnection.exchange(
            "GET", URL(string: session.url + "/v1/session")!, headers: [("Authorization", "Bearer \(session.token)")],
            timeout: 5)
        let state = try JSONDecoder().decode(PageState.self, from: Data(page.body))
        let texts = state.programs.flatMap(\.console).filter { $0.stream == "test" }.map(\.text)
        #expect(texts.contains("spec/host_spec.lua: 2 successes / 0 failures / 0 errors / 0 pending"), "\(texts)")
    }

    /// What the session page's state says of each program's console.
    struct PageState: Decodable {
        struct Program: Decodable { var console: [Line] }
        struct Line: Decodable {
            var stream: String
            var text: String
        }
        var programs: [Program]
    }

    @Test func theSameReportersAndExitStatusAsALocalRun() throws {
        let session = try Session(specs: [
            "spec/host_spec.lua": "it('adds', function() assert.are.equal(7, hostSum(3, 3)) end)\n"
        ])
        defer { session.stop() }
        let live = try session.test(["--live", session.url, "--format", "junit"], token: session.token)
        #expect(live.status == 1, "\(live.stderr)")
        #expect(live.stdout.contains("<testsuites"), "\(live.stdout)")
        #expect(live.stdout.contains("failures=\"1\""), "\(live.stdout)")
        #expect(live.stdout.contains("Expected objects to be equal."), "\(live.stdout)")
    }

    @Test func aWrongTokenIsRefusedWithAClearMessage() throws {
        let session = try Session(specs: ["spec/host_spec.lua": Self.hostSpec])
        defer { session.stop() }
        let refused = try session.test(["--live", session.url], token: "not-the-token")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("refused the token in FLOWPKG_LIVE_TOKEN"), "\(refused.stderr)")
        #expect(session.tokenSightings.withLock { $0 }.isEmpty)
    }

    @Test func withNoProgramConnectedItSaysHowToStartOne() throws {
        let session = try Session(specs: ["spec/host_spec.lua": Self.hostSpec], host: false)
        defer { session.stop() }
        let result = try session.test(["--live", session.url], token: session.token)
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: no program is connected to this flowpkg serve"), "\(result.stderr)")
    }

    /// The program ends while a spec file runs: the run ends at once with the reason, not when
    /// the file's time limit would have stopped it.
    @Test func aProgramThatEndsMidRunEndsTheRunWithTheReason() throws {
        let session = try Session(specs: [
            "spec/host_spec.lua": "it('waits', function() commandLinesWithToken() while true do end end)\n"
        ])
        defer { session.stop() }
        let asking = try BackgroundFlowpkg(
            ["test", "--live", session.url, "--timeout", "8"], in: session.project.folder,
            environment: ["FLOWPKG_CACHE": session.project.cache.path, "FLOWPKG_LIVE_TOKEN": session.token])
        #expect(session.until { !session.tokenSightings.withLock { $0 }.isEmpty })
        session.stopHost()
        asking.process.waitUntilExit()
        #expect(asking.process.terminationStatus == 1)
        #expect(asking.stderr.contains("the program ended before its tests finished"), "\(asking.stderr)")
    }

    @Test func theTokenIsTakenFromTheEnvironmentOnly() throws {
        let scratch = try Scratch("live-token")
        defer { scratch.remove() }
        let missing = try FlowpkgProcess.run(["test", "--live", "http://127.0.0.1:9"], in: scratch.url)
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("FLOWPKG_LIVE_TOKEN"), "\(missing.stderr)")
        // There is no --token to put it in: even with the environment's, the option is refused.
        let onTheCommandLine = try FlowpkgProcess.run(
            ["test", "--live", "http://127.0.0.1:9", "--token", "secret-token"], in: scratch.url,
            environment: ["FLOWPKG_LIVE_TOKEN": "secret-token"])
        #expect(onTheCommandLine.status == 64)
        #expect(onTheCommandLine.stderr.contains("Unknown option '--token'"), "\(onTheCommandLine.stderr)")
    }
}
