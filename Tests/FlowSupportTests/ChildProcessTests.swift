@testable import FlowSupport
import FlowTestSupport
import Foundation
import Testing

/// The one child-process runner: a deadline that kills the whole group, a process group of its
/// own, no inherited descriptor, a working directory for the child alone, secrets refused on a
/// command line, exit statuses as a shell reports them.
@Suite(.serialized) struct ChildProcessTests {
    let scratch: URL

    init() throws { scratch = try Scratch("child").url }

    func shell(_ script: String, _ configure: (inout ChildCommand) -> Void = { _ in }) -> ChildCommand {
        var command = ChildCommand("/bin/sh", ["-c", script])
        configure(&command)
        return command
    }

    /// Whether process `pid` is gone (or a zombie nobody reaped yet, which runs nothing).
    func isGone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    @Test func exitStatusesAreAShellsAndOutputIsCaptured() throws {
        var output = try ChildProcess.run(shell("echo out; echo err >&2; exit 3"), deadline: 30)
        #expect(output.status == 3 && output.standardOutput == "out\n" && output.standardError == "err\n")
        output = try ChildProcess.run(shell("kill -TERM $$"), deadline: 30)
        #expect(output.status == 128 + SIGTERM)
    }

    /// `sh` starts a `sleep` in the background and waits: at the deadline both are killed, the
    /// grandchild too, as one group.
    @Test func aDeadlineKillsTheWholeGroup() throws {
        let pidFile = scratch.appendingPathComponent("grandchild")
        #expect(throws: ChildProcessError.self) {
            _ = try ChildProcess.run(shell("sleep 300 & echo $! > \(pidFile.path); wait"), deadline: 1)
        }
        let grandchild = try #require(
            pid_t(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        var waited = 0
        while !isGone(grandchild) && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        #expect(isGone(grandchild), "the background sleep outlived its group")
        do {
            _ = try ChildProcess.run(shell("sleep 300"), deadline: 0.2)
            Issue.record("no timeout")
        } catch {
            #expect(error == .timedOut(command: "/bin/sh -c 'sleep 300'", seconds: 0.2))
        }
    }

    @Test func aChildLeadsAProcessGroupOfItsOwn() throws {
        let child = try ChildProcess.start(shell("sleep 300") { $0.output = .discard })
        let stat = try String(contentsOfFile: "/proc/\(child.processID)/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        #expect(fields.count > 3 && fields[2] == "\(child.processID)", "\(stat)")
        #expect(getpgrp() != child.processID)
        #expect(child.terminate(grace: 5) == 128 + SIGTERM)
    }

    /// A descriptor flowpkg opened without close-on-exec (as dev's signal pipe was) is not
    /// open in the child.
    @Test func noDescriptorButTheStandardOnesIsInherited() throws {
        let descriptor = open("/dev/null", O_RDONLY)
        defer { close(descriptor) }
        #expect(descriptor > 2 && fcntl(descriptor, F_GETFD) & FD_CLOEXEC == 0)
        let output = try ChildProcess.run(
            shell("ls /proc/$$/fd; test -e /proc/$$/fd/\(descriptor) && echo inherited || echo closed"), deadline: 30)
        #expect(output.standardOutput.hasSuffix("closed\n"), "\(output.standardOutput)")
        #expect(
            output.standardOutput.split(separator: "\n").dropLast().allSatisfy {
                ["0", "1", "2"].contains($0) || Int($0).map { $0 >= 10 } == true
            })
    }

    /// A lifeline is descriptor 3 and nothing more, and reads nothing while flowpkg lives (end
    /// of file comes once flowpkg is gone: `DevCommandTests` kills dev for it).
    @Test func aLifelineIsDescriptorThreeAlone() throws {
        let script = "ls /proc/$$/fd; if timeout 0.3 head -c 1 <&3; then echo ended; else echo alive; fi"
        let output = try ChildProcess.run(shell(script) { $0.lifeline = true }, deadline: 30)
        let lines = output.standardOutput.split(separator: "\n")
        // The shell's own descriptors are 10 and above.
        #expect(lines.dropLast().filter { Int($0).map { $0 < 10 } == true } == ["0", "1", "2", "3"], "\(lines)")
        #expect(lines.last == "alive", "\(output.standardOutput)\(output.standardError)")
    }

    @Test func theWorkingDirectoryIsTheChildsAlone() throws {
        let before = FileManager.default.currentDirectoryPath
        let output = try ChildProcess.run(shell("pwd") { $0.workingDirectory = scratch.path }, deadline: 30)
        #expect(
            output.standardOutput == scratch.resolvingSymlinksInPath().path + "\n"
                || output.standardOutput == scratch.path + "\n")
        #expect(FileManager.default.currentDirectoryPath == before)
        #expect(throws: ChildProcessError.self) {
            _ = try ChildProcess.run(shell("pwd") { $0.workingDirectory = scratch.path + "/missing" }, deadline: 30)
        }
    }

    @Test func secretsGoInTheEnvironmentOnly() throws {
        let output = try ChildProcess.run(
            shell("printf %s \"$FLOWPKG_TEST_SECRET\"") { $0.secrets = ["FLOWPKG_TEST_SECRET": "s3cret-value"] },
            deadline: 30)
        #expect(output.standardOutput == "s3cret-value")
        do {
            _ = try ChildProcess.start(
                ChildCommand(
                    "/bin/echo", ["--token", "s3cret-value"], secrets: ["FLOWPKG_TEST_SECRET": "s3cret-value"]))
            Issue.record("started with a secret on its command line")
        } catch {
            #expect(
                error
                    == .secretOnCommandLine(command: "/bin/echo --token s3cret-value", variable: "FLOWPKG_TEST_SECRET"))
            #expect(!error.description.contains("s3cret-value") || error.description.contains("'/bin/echo"))
        }
    }

    @Test func aProgramNotOnPathIsNamed() {
        #expect(throws: ChildProcessError.self) {
            _ = try ChildProcess.start(ChildCommand("flowpkg-no-such-program", [], searchesPath: true))
        }
    }
}
