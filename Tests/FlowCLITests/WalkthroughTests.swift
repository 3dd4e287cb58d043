import Foundation
import Testing

/// The README's walk-throughs are scripts under `Tests/Walkthroughs/`, run here with the built
/// `flowpkg`: the README's block must be the script's, line for line, and the script must pass.
@Suite struct WalkthroughTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// The lines between `# README begin` and `# README end`.
    static func block(of script: String) -> [Substring] {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let begin = lines.firstIndex(of: "# README begin"), let end = lines.firstIndex(of: "# README end") else {
            return []
        }
        return Array(lines[(begin + 1)..<end])
    }

    /// Checks that README.md shows `name`'s block as it is, then runs the script with the built
    /// flowpkg first on PATH; returns its exit status and its output.
    static func run(
        _ name: String, environment extra: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> (block: [Substring], status: Int32, output: String)
    {
        let scriptURL = repository.appendingPathComponent("Tests/Walkthroughs/\(name).sh")
        let script = try String(contentsOf: scriptURL, encoding: .utf8)
        let block = block(of: script)
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains("```sh\n" + block.joined(separator: "\n") + "\n```"),
            "README.md's walk-through differs from Tests/Walkthroughs/\(name).sh: copy the script's block",
            sourceLocation: sourceLocation)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [scriptURL.path]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] =
            FlowpkgProcess.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (block, process.terminationStatus, text)
    }

    @Test func theBasicsWalkthroughIsTheREADMEsAndWorks() throws {
        let (block, status, text) = try Self.run("basics")
        #expect(block.count == 5)
        #expect(status == 0, "\(text)")
        #expect(text.contains("walkthrough: ok"), "\(text)")
    }

    @Test func theUpdatesWalkthroughIsTheREADMEsAndWorks() throws {
        // A free loopback port for the walk-through's feed server.
        let probe = try StaticFeedServer(folder: FileManager.default.temporaryDirectory)
        let port = probe.port
        probe.stop()
        let (block, status, text) = try Self.run("updates", environment: ["PORT": String(port)])
        #expect(block.count > 5)
        #expect(status == 0, "\(text)")
        #expect(text.contains("walkthrough: ok"), "\(text)")
    }
}
