import FlowTestSupport
import Foundation
import Testing

/// flowpkg SIGKILLed while luarocks reads a hostile rocks server's never-ending manifest (issue
/// 43): flowpkg can clean up nothing, yet luarocks must not run on until its deadline. The one
/// runner starts a child it waits for with Linux's parent-death signal (`setpriv --pdeathsig`).
@Suite(.serialized) struct HostileRocksKillTests {
    @Test func sigkillOfFlowpkgEndsLuaRocks() throws {
        let hostile = try HostileRocksServerTests.Hostile()
        defer { hostile.stop() }
        let lock = try BackgroundFlowpkg(
            ["lock"], in: hostile.app, environment: ["FLOWPKG_CACHE": hostile.scratch.url.path + "/cache"])
        let pid = lock.process.processIdentifier
        let marker = "flowpkg-resolve-\(pid)-"
        // luarocks itself, not `setpriv` still about to ask for the parent-death signal: a parent
        // killed before that request leaves the child to its deadline (a window of a moment at
        // each start, which this test does not aim at; under load its poll used to land in it).
        #expect(
            lock.waitFor(timeout: 60) { _, _ in !Self.luarocks(holding: marker).isEmpty },
            "\(lock.stdout)\(lock.stderr)")
        let running = Self.luarocks(holding: marker)
        #expect(!running.isEmpty)
        kill(pid, SIGKILL)
        lock.process.waitUntilExit()
        #expect(lock.process.terminationReason == .uncaughtSignal && lock.process.terminationStatus == SIGKILL)
        var leftover = HostileRocksServerTests.processes(holding: marker)
        // The kernel sends luarocks SIGKILL as flowpkg dies; it is gone within moments, not at its
        // 600-second deadline.
        for _ in 0..<500 where !leftover.isEmpty {
            usleep(10_000)
            leftover = HostileRocksServerTests.processes(holding: marker)
        }
        #expect(leftover.isEmpty, "luarocks outlived a SIGKILLed flowpkg lock: \(leftover)")
        for orphan in leftover { kill(orphan, SIGKILL) }
        // What SIGKILL left in the temporary folder cannot be removed by flowpkg; the test does.
        for name in HostileRocksServerTests.scratchFiles(of: pid) {
            try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "/" + name)
        }
    }

    /// The processes holding `text` in their command line that `setpriv` has become (exec'd).
    private static func luarocks(holding text: String) -> [pid_t] {
        HostileRocksServerTests.processes(holding: text).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let program = data.split(separator: 0, maxSplits: 1).first.map { String(decoding: $0, as: UTF8.self) }
            return program.map { !$0.hasSuffix("setpriv") } ?? false
        }
    }
}
