import Foundation
import Testing

/// The README's first walk-through is `Tests/Walkthroughs/basics.sh`, run here with the built
/// `flowpkg`: the README's block must be the script's, line for line, and the script must pass.
/// (WalkthroughTests does the same for the updates walk-through.)
@Suite struct BasicsWalkthroughTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// The lines between `# README begin` and `# README end`.
    static func readmeBlock(of script: String) -> [Substring] {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let begin = lines.firstIndex(of: "# README begin"), let end = lines.firstIndex(of: "# README end") else {
            return []
        }
        return Array(lines[(begin + 1)..<end])
    }

    @Test func theBasicsWalkthroughIsTheREADMEsAndWorks() throws {
        let scriptURL = Self.repository.appendingPathComponent("Tests/Walkthroughs/basics.sh")
        let script = try String(contentsOf: scriptURL, encoding: .utf8)
        let block = Self.readmeBlock(of: script)
        #expect(block.count == 5)
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains("```sh\n" + block.joined(separator: "\n") + "\n```"),
            "README.md's walk-through differs from Tests/Walkthroughs/basics.sh: copy the script's block")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [scriptURL.path]
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] =
            FlowpkgProcess.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
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
