import FlowTestSupport
import Foundation
import Testing

/// `flowpkg init` adopting code with no single start-module candidate: on a terminal it asks
/// (a pseudo-terminal from Python's `pty` module stands in for the user's); otherwise it
/// leaves `startModule` unset and says how to set it.
@Suite struct InitPromptTests {
    /// A folder with two candidates, `main.lua` and `init.lua`, each runnable.
    func twoCandidates(in scratch: Scratch, named name: String) throws -> URL {
        let folder = scratch.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("print('main runs')\n".utf8).write(to: folder.appendingPathComponent("main.lua"))
        try Data("print('init runs')\n".utf8).write(to: folder.appendingPathComponent("init.lua"))
        return folder
    }

    /// Runs flowpkg with its stdin, stdout and stderr on a pseudo-terminal, typing `answers`.
    func runOnATerminal(_ arguments: [String], answers: String, in folder: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", NewPromptTests.driver, FlowpkgProcess.executable.path] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
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

    func projectFile(_ folder: URL) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("flowpkg.json"), encoding: .utf8)) ?? ""
    }

    @Test func onATerminalItAsksUntilTheAnswerIsACandidate() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try twoCandidates(in: scratch, named: "two")
        let (status, transcript) = try runOnATerminal(["init"], answers: "nope\ninit\n", in: folder)
        #expect(status == 0, "\(transcript)")
        #expect(transcript.contains("Which module starts the program? (main, init; empty: decide later): "))
        #expect(transcript.contains("'nope' is not one of main, init"), "\(transcript)")
        #expect(transcript.contains("startModule: \"init\" (chosen)"), "\(transcript)")
        #expect(projectFile(folder).contains("\"startModule\": \"init\""))
        // The choice is the program `run` starts.
        let ran = try FlowpkgProcess.run(["run"], in: folder)
        #expect(ran.stdout == "init runs\n", "\(ran.stderr)")
    }

    @Test func onATerminalAnEmptyAnswerLeavesItUnsetAndSaysHow() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try twoCandidates(in: scratch, named: "later")
        let (status, transcript) = try runOnATerminal(["init"], answers: "\n", in: folder)
        #expect(status == 0, "\(transcript)")
        #expect(transcript.contains("Which module starts the program?"))
        #expect(
            transcript.contains(
                "startModule not set: main, init could each start it; set \"startModule\" in flowpkg.json or run init with --start-module"
            ), "\(transcript)")
        #expect(!projectFile(folder).contains("startModule"))
    }

    /// Not on a terminal (a pipe, CI): no question, the decision and how to make it printed.
    @Test func offATerminalItSaysHowToSetIt() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try twoCandidates(in: scratch, named: "piped")
        let result = try FlowpkgProcess.run(["init"], in: folder, stdin: Data("main\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Which module"), "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "startModule not set: main, init could each start it; set \"startModule\" in flowpkg.json or run init with --start-module"
            ), "\(result.stdout)")
        #expect(!projectFile(folder).contains("startModule"))
        #expect(try FlowpkgProcess.run(["validate"], in: folder).status == 0)
    }
}
