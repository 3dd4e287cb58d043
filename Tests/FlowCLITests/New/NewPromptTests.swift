import FlowTestSupport
import Foundation
import Testing

/// `flowpkg new` on a terminal asks for what the flags did not give. A pseudo-terminal from
/// Python's `pty` module stands in for the user's terminal.
@Suite struct NewPromptTests {
    static let driver = """
        import os, pty, select, sys
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], sys.argv[1:])
        os.write(fd, sys.stdin.buffer.read())
        out = b""
        while True:
            try:
                ready, _, _ = select.select([fd], [], [], 30)
                if not ready:
                    break
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            out += data
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(out.decode("utf-8", "replace"))
        sys.exit(os.waitstatus_to_exitcode(status))
        """

    func runOnATerminal(_ arguments: [String], answers: String, in scratch: Scratch) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.driver, FlowpkgProcess.executable.path] + arguments
        process.currentDirectoryURL = scratch.url
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(answers.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func asksForWhatIsMissingAndAgainAfterABadAnswer() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let (status, transcript) = try runOnATerminal(
            ["new", "Words", "--template", "console-app"],
            answers: "\nnot valid\norg.example.words\nApp.Start\n", in: scratch)
        #expect(status == 0)
        #expect(transcript.contains("Product name [Words]: "))
        #expect(transcript.contains("Package identifier the host loads [com.example.words]: "))
        #expect(transcript.contains("'not valid' is not valid: it needs at least two dot-separated parts"))
        #expect(transcript.contains("The module flowpkg run starts with [Main]: "))
        let project = String(decoding: scratch.tree["Words/flowpkg.json"]!!, as: UTF8.self)
        #expect(project.contains(#""name": "Words""#))
        #expect(project.contains(#""identifier": "org.example.words""#))
        #expect(project.contains(#""startModule": "App.Start""#))
        #expect(scratch.tree["Words/Sources/App/Start.lua"] != nil)
    }

    @Test func doesNotAskForWhatTheFlagsGave() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let (status, transcript) = try runOnATerminal(
            ["new", "Lib", "--template", "lua-library", "--name", "Shared", "--identifier", "org.example.shared"],
            answers: "\n", in: scratch)
        #expect(status == 0)
        #expect(!transcript.contains("Product name"))
        #expect(!transcript.contains("Package identifier"))
        #expect(transcript.contains("[TextKit]: "))
        #expect(scratch.tree["Lib/Sources/TextKit/init.lua"] != nil)
    }

    @Test func aTakenFolderIsRefusedBeforeAnyQuestion() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("Taken/x"), withIntermediateDirectories: true)
        let before = scratch.tree
        let (status, transcript) = try runOnATerminal(
            ["new", "Taken", "--template", "console-app"], answers: "\n\n\n", in: scratch)
        #expect(status == 1)
        #expect(!transcript.contains("Product name"))
        #expect(transcript.contains("Taken already exists and is not empty"))
        #expect(scratch.tree == before)
    }
}
