import FlowTestSupport
import Foundation
import Testing

@testable import FlowPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An export killed part way (`kill -9`) leaves its temporary file beside the output; the next
/// export into that folder removes such files when their process is gone, and nothing else.
@Suite struct ExportLeftoversTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    /// A PID no process has: one past the largest the kernel hands out.
    private func deadPID() throws -> pid_t {
        let text = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
        let pid = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))) + 1
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        return pid
    }

    /// A child that has exited and been reaped: its PID is free again.
    private func reapedPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func staleTemporaryFilesOfDeadExportsAreRemovedAndNothingElse() throws {
        let project = try SampleProject(scratch)
        let dead = try deadPID()
        let reaped = try reapedPID()
        let live = getpid()
        let parent = getppid()
        let stale = [".Sample.luapkg.\(dead).123.tmp", ".Sample.luapkg.\(dead).4294967295.tmp"]
        let kept = [
            ".Sample.luapkg.\(live).77.tmp",  // this process: alive
            ".Sample.luapkg.\(parent).78.tmp",  // alive
            ".Sample.luapkg.\(dead).12.tmp.bak", ".Sample.luapkg.\(dead).tmp", ".Sample.luapkg.\(dead).1.2.tmp",
            ".Sample.luapkg.\(dead).x1.tmp", ".Sample.luapkg.-\(dead).1.tmp", ".Other.luapkg.\(dead).1.tmp",
            "Sample.luapkg.\(dead).1.tmp", ".Sample.luapkg.\(dead).99999999999.tmp", "notes.txt",
        ]
        for name in stale + kept { try scratch.file(name, "partial") }
        // A folder and a symbolic link with a stale name are not regular files: left alone.
        let folder = ".Sample.luapkg.\(dead).5.tmp"
        try FileManager.default.createDirectory(at: scratch.path(folder), withIntermediateDirectories: false)
        let link = ".Sample.luapkg.\(dead).6.tmp"
        try FileManager.default.createSymbolicLink(atPath: scratch.path(link).path, withDestinationPath: "notes.txt")
        // A reaped child's PID is free unless the system reused it at once.
        let reapedName = ".Sample.luapkg.\(reaped).9.tmp"
        try scratch.file(reapedName, "partial")

        _ = try project.write(to: "Sample.luapkg")

        let left = Set(try scratch.entries())
        for name in stale { #expect(!left.contains(name), "\(name) was left") }
        for name in kept + [folder, link] { #expect(left.contains(name), "\(name) was removed") }
        #expect(left.contains(reapedName) == (kill(reaped, 0) == 0))
        #expect(left.contains("Sample.luapkg"))
        // Nothing of this export's own is left either.
        #expect(!left.contains { $0.hasPrefix(".Sample.luapkg.\(live).") && $0 != ".Sample.luapkg.\(live).77.tmp" })
    }

    @Test func onlyThisWritersNamesHaveAPID() {
        let prefix = ".App.luapkg."
        #expect(TemporaryOutput.stalePID(".App.luapkg.12.34.tmp", prefix: prefix) == 12)
        #expect(TemporaryOutput.stalePID(".App.luapkg.12.tmp", prefix: prefix) == nil)
        #expect(TemporaryOutput.stalePID(".App.luapkg.0.1.tmp", prefix: prefix) == nil)
        #expect(TemporaryOutput.stalePID(".App.luapkg.12.34.56.tmp", prefix: prefix) == nil)
        #expect(TemporaryOutput.stalePID(".App.luapkg.1 2.34.tmp", prefix: prefix) == nil)
        #expect(TemporaryOutput.stalePID(".App.luapkg.\(getpid()).34.tmp", prefix: prefix) == nil)
        #expect(TemporaryOutput.stalePID(".App.luapkg.١٢.34.tmp", prefix: prefix) == nil)
    }
}
