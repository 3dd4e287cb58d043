import FlowTestSupport
import Foundation
import Testing

/// The shell walk-throughs of the README and the articles are scripts under `Tests/Walkthroughs/`,
/// run here with the built `flowpkg`: the page's block must be the script's, line for line, the
/// README must be or link the page, and the script must pass.
@Suite struct WalkthroughTests {
    static let repository = CLITestFolder.url
        .appendingPathComponent("../..").standardizedFileURL

    /// The lines between `# README begin` and `# README end`.
    static func block(of script: String) -> [Substring] {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let begin = lines.firstIndex(of: "# README begin"), let end = lines.firstIndex(of: "# README end") else {
            return []
        }
        return Array(lines[(begin + 1)..<end])
    }

    /// Checks that `page` (a path in the repository) shows `name`'s block as it is, and that the
    /// README is that page or links it; then runs the script with the built flowpkg first on
    /// PATH; returns its exit status and its output.
    static func run(
        _ name: String, shownIn page: String, environment extra: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> (block: [Substring], status: Int32, output: String)
    {
        let scriptURL = repository.appendingPathComponent("Tests/Walkthroughs/\(name).sh")
        let script = try String(contentsOf: scriptURL, encoding: .utf8)
        let block = block(of: script)
        let shown = try String(contentsOf: repository.appendingPathComponent(page), encoding: .utf8)
        #expect(!block.isEmpty, "Tests/Walkthroughs/\(name).sh has no README begin/end block")
        #expect(
            shown.contains("```sh\n" + block.joined(separator: "\n") + "\n```"),
            "\(page)'s walk-through differs from Tests/Walkthroughs/\(name).sh: copy the script's block",
            sourceLocation: sourceLocation)
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            page == "README.md" || readme.contains("](\(page))"), "README.md does not link \(page)",
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
        let (block, status, text) = try Self.run("basics", shownIn: "README.md")
        #expect(block.count == 6)
        #expect(status == 0, "\(text)")
        #expect(text.contains("walkthrough: ok"), "\(text)")
    }

    @Test func theUpdatesWalkthroughIsTheArticlesAndWorks() throws {
        // A free loopback port for the walk-through's feed server.
        let probeFolder = try Scratch("probe")
        defer { probeFolder.remove() }
        let probe = try StaticFeedServer(folder: probeFolder.url)
        let port = probe.port
        probe.stop()
        let (block, status, text) = try Self.run(
            "updates", shownIn: "Sources/FlowUpdates/FlowUpdates.docc/TakingSignedUpdates.md",
            environment: ["PORT": String(port)])
        #expect(block.count > 5)
        #expect(status == 0, "\(text)")
        #expect(text.contains("walkthrough: ok"), "\(text)")
    }
}
