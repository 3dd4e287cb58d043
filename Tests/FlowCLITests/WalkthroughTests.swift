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

    @Test func theUpdatesWalkthroughIsTheREADMEsAndWorks() throws {
        let scriptURL = Self.repository.appendingPathComponent("Tests/Walkthroughs/updates.sh")
        let script = try String(contentsOf: scriptURL, encoding: .utf8)
        let block = Self.block(of: script)
        #expect(block.count > 5)
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains("```sh\n" + block.joined(separator: "\n") + "\n```"),
            "README.md's updates walk-through differs from Tests/Walkthroughs/updates.sh: copy the script's block")

        // A free loopback port for the walk-through's feed server.
        let probe = try StaticFeedServer(folder: FileManager.default.temporaryDirectory)
        let port = probe.port
        probe.stop()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [scriptURL.path]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] =
            FlowpkgProcess.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        environment["PORT"] = String(port)
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("walkthrough: ok"), "\(text)")
    }
}
