import FlowTestSupport
import Foundation
import Testing

/// The programs under `Snippets/`, which the DocC articles show with `@Snippet`: SwiftPM builds
/// them with the package, and these tests run them as the articles say they run.
@Suite struct SnippetTests {
    static let repository = CLITestFolder.url
        .appendingPathComponent("../..").standardizedFileURL

    /// A snippet's executable, built beside `flowpkg`.
    static func snippet(_ name: String) -> URL {
        FlowpkgProcess.executable.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Runs a built snippet and returns its exit status and what it printed (both streams).
    static func run(_ name: String, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = snippet(name)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let log = directory.appendingPathComponent("\(name)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }

    static func temporaryFolder() throws -> URL {
        let folder = try Scratch("snippets").url
        return folder
    }

    /// `flowpkg ARGS` in `directory`, which must succeed.
    static func flowpkg(_ arguments: [String], in directory: URL) throws {
        let result = try FlowpkgProcess.run(arguments, in: directory)
        if result.status != 0 {
            throw FixtureError(message: "flowpkg \(arguments.joined(separator: " ")): \(result.stderr)")
        }
    }

    @Test func everySnippetIsShownByAnArticleAndEverySwiftExampleIsASnippet() throws {
        let snippets = try FileManager.default.contentsOfDirectory(
            at: Self.repository.appendingPathComponent("Snippets"), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "swift" }.map { $0.deletingPathExtension().lastPathComponent }
        #expect(snippets.count >= 5)
        var shown: Set<String> = []
        let sources = Self.repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let reference = try Regex(#"@Snippet\(path: "flowpkg/Snippets/([A-Za-z]+)"\)"#)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "md", file.path.contains(".docc/") else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: reference) {
                let name = String(match.output[1].substring ?? "")
                #expect(
                    snippets.contains(name), "\(file.lastPathComponent) shows a snippet that does not exist: \(name)")
                shown.insert(name)
            }
        }
        for name in snippets { #expect(shown.contains(name), "no article shows Snippets/\(name).swift") }

        // README.md shows Swift only by linking compiled files, so no example of it can rot.
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            !readme.contains("```swift"), "README.md has a Swift block: make it a snippet under Snippets/ and link it")
        for match in readme.matches(of: try Regex(#"\]\((Snippets/[A-Za-z]+\.swift|Sources/[^)]+\.md)\)"#)) {
            let path = String(match.output[1].substring ?? "")
            #expect(
                FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(path).path),
                "README.md links \(path), which does not exist")
        }
    }

    /// The one Swift block of the articles that is not a program, a manifest fragment, is made of
    /// lines of the sample's manifest, which `.ci/host-sample` builds.
    @Test func theManifestFragmentIsTheSamplesManifest() throws {
        let article = try String(
            contentsOf: Self.repository.appendingPathComponent(
                "Sources/FlowRuntime/FlowRuntime.docc/EmbeddingAPackage.md"), encoding: .utf8)
        let manifest = try String(
            contentsOf: Self.repository.appendingPathComponent("Samples/HostApp/Package.swift"), encoding: .utf8)
        let manifestLines = Set(manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let blocks = article.components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 1)
        for line in blocks.joined().split(separator: "\n") {
            let line = line.trimmingCharacters(in: .whitespaces)
            #expect(
                manifestLines.contains(line), "EmbeddingAPackage.md's manifest line `\(line)` is not in the sample's")
        }
    }

    @Test func writeAndReadPackageWritesOpensAndVerifies() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output) = try Self.run("WriteAndReadPackage", [], in: folder)
        #expect(status == 0, "\(output)")
        #expect(output.contains("modules/greeting.lua\t"), "\(output)")
        #expect(output.contains("motto: Small and checked."), "\(output)")
        #expect(output.contains("verified: no problems"), "\(output)")
    }

    @Test func sourcePriorityPrintsThePlansAndTheFirstSourceWins() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output) = try Self.run("SourcePriority", [], in: folder)
        #expect(status == 0, "\(output)")
        #expect(output.contains("release host: package\n"), "\(output)")
        #expect(output.contains("live source connected: live then package\n"), "\(output)")
        #expect(output.contains("nothing connected in time: package (a later live source takes over)"), "\(output)")
        #expect(output.contains("package missing: fails: App.luapkg: no such file"), "\(output)")
        #expect(output.contains("\nreturn 'edited'\n"), "\(output)")
        #expect(output.contains("module main <- live http://127.0.0.1:7315"), "\(output)")
        #expect(output.contains("module util <- package App.luapkg"), "\(output)")
        #expect(output.contains("module 'missing' not found"), "\(output)")
    }

    @Test func embedPackageRunsAnExportedProject() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.flowpkg(["new", "Hello", "--template", "console-app"], in: folder)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("app"), withIntermediateDirectories: true)
        try Self.flowpkg(["export", "Hello", "-o", "app/Hello.luapkg"], in: folder)
        let (status, output) = try Self.run(
            "EmbedPackage", [folder.appendingPathComponent("app").path, "com.example.hello"], in: folder)
        #expect(status == 0, "\(output)")
        #expect(output.contains("Hello from Hello!"), "\(output)")
        #expect(output.contains("the start module returned"), "\(output)")
        #expect(output.contains("module Banner <- package"), "\(output)")
        #expect(output.contains("resource motd.txt <- package"), "\(output)")
    }

    @Test func takeUpdatesRunsTheUpdateOnItsSecondLaunch() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.flowpkg(["new", "App", "--template", "console-app", "--identifier", "com.example.app"], in: folder)
        try Self.flowpkg(["keygen", "release"], in: folder)
        try Self.flowpkg(["export", "App", "-o", "App-1.0.0.luapkg", "--package-version", "1.0.0"], in: folder)
        try Self.flowpkg(
            ["export", "App", "-o", "App-1.1.0.luapkg", "--package-version", "1.1.0", "--sign", "release.key"],
            in: folder)
        try Self.flowpkg(["publish", "App-1.1.0.luapkg", "--to", "feed", "--sign", "release.key"], in: folder)
        let arguments = [
            folder.appendingPathComponent("App-1.0.0.luapkg").path,
            folder.appendingPathComponent("feed").absoluteString,
            folder.appendingPathComponent("release.pub").path, folder.appendingPathComponent("store").path,
        ]

        let first = try Self.run("TakeUpdates", arguments, in: folder)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("Hello from App!"), "\(first.output)")
        #expect(first.output.contains("ran 1.0.0 from package "), "\(first.output)")
        #expect(first.output.contains("update: update 1.1.0 ("), "\(first.output)")
        #expect(first.output.contains("downloaded and verified"), "\(first.output)")

        let second = try Self.run("TakeUpdates", arguments, in: folder)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("update: running update 1.1.0"), "\(second.output)")
        #expect(second.output.contains("Hello from App!"), "\(second.output)")
        #expect(second.output.contains("ran 1.1.0 from update "), "\(second.output)")
        #expect(second.output.contains("update: update 1.1.0 is already downloaded"), "\(second.output)")
    }

    @Test func liveDevelopmentReloadsWhatFlowpkgServeChanges() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.flowpkg(["new", "Hello", "--template", "console-app"], in: folder)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("app"), withIntermediateDirectories: true)
        try Self.flowpkg(["export", "Hello", "-o", "app/Hello.luapkg"], in: folder)
        let served = try ServedProject(folder.appendingPathComponent("Hello"), in: folder)
        let host = try BackgroundFlowpkg(
            [folder.appendingPathComponent("app").path, "com.example.hello"], in: folder,
            environment: ["FLOWPKG_LIVE_URL": served.url, "FLOWPKG_LIVE_TOKEN": ServedProject.token],
            executable: Self.snippet("LiveDevelopment"))
        #expect(host.waitFor { out, _ in out.contains("Main ran and returned") }, "\(host.stdout)\(host.stderr)")
        #expect(host.stderr.contains("live: connected to"), "\(host.stderr)")
        // What the host's Lua printed, and its own log line, reach serve through its reporter.
        #expect(
            served.server.waitFor { out, _ in out.contains("+- Hello") && out.contains("host started") },
            "serve did not show the host's output: \(served.server.stdout)")
        let motd = folder.appendingPathComponent("Hello/Sources/Banner.lua")
        let text = try String(contentsOf: motd, encoding: .utf8)
        try text.replacingOccurrences(of: "\"+- \"", with: "\"*- \"").write(to: motd, atomically: true, encoding: .utf8)
        #expect(
            host.waitFor { out, _ in out.contains("*- Hello") },
            "the edit of Banner.lua did not run Main again: \(host.stdout)\(host.stderr)")
        #expect(host.interrupt() == 130)
        served.server.interrupt()
    }
}
