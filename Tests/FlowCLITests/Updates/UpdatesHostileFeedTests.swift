import FlowTestSupport
import Foundation
import Testing

/// `flowpkg run --updates` against feeds that misbehave, served by a real HTTP server on
/// loopback (`Tests/Fixtures/feed_server.py`): each case leaves the embedded package running,
/// writes nothing outside the update store, and runs no code from the feed. Also what a good
/// feed makes cheap: delta downloads and resumed ones, counted by what the server sent.
@Suite(.serialized) struct UpdatesHostileFeedTests {
    typealias World = UpdatesEndToEndTests.World

    /// Everything under the scratch folder that is not the feed, the store, a project or a
    /// package the test made: must stay empty of anything a feed could have written.
    func strayFiles(_ world: World) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: world.url.path)) ?? []
        return names.filter {
            !["feed", "store", "projects", "release.key", "release.pub", "other.key", "other.pub"].contains($0)
                && !$0.hasSuffix(".luapkg")
        }
    }

    func expectEmbeddedRan(_ result: FlowpkgProcess.Result, _ world: World, _ label: String) {
        #expect(result.status == 0, "\(label): \(result.stderr)")
        #expect(result.stdout == "embedded 1.0.0\n", "\(label): \(result.stdout)")
        #expect(result.stderr.contains("update: running the embedded package 1.0.0"), "\(label): \(result.stderr)")
        #expect(world.storedPackages.isEmpty, "\(label)")
        #expect(strayFiles(world).isEmpty, "\(label): \(strayFiles(world))")
    }

    /// A package larger than declared, a redirect, an endless stream, a slow drip of the
    /// index or of the package: the check stops (at the declared size, at once, or at its
    /// deadline) and the embedded package runs.
    @Test(arguments: [
        ("oversize", "package", "bytes, more than"),
        ("redirect", "package", "a redirect; a feed is read only at its own address"),
        ("redirect", "index", "a redirect; a feed is read only at its own address"),
        ("endless", "package", "the answer is larger than"),
        ("endless", "index", "the answer is larger than 1048576 bytes"),
        ("dribble", "package", "did not finish within its deadline of 2 s"),
        ("dribble", "index", "did not finish within its deadline of 2 s"),
    ])
    func hostileServerLeavesEmbeddedRunning(_ mode: String, _ target: String, _ message: String) throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate()
        let server = try StaticFeedServer(
            folder: world.feed, mode: mode, target: target, extra: ["--interval", "0.3", "--max-seconds", "20"])
        defer { server.stop() }
        let result = try world.run(server, extra: ["--update-deadline", "2"])
        expectEmbeddedRan(result, world, "\(mode) \(target)")
        #expect(result.stderr.contains(message), "\(mode) \(target): \(result.stderr)")
        if mode == "oversize" {
            // Not one byte beyond the declared size reached the disk, and nothing is kept.
            #expect(world.leftoverDownloads.isEmpty)
        }
    }

    @Test func aWriteErrorCleansUpAndTheEmbeddedPackageRuns() throws {
        let world = try World()
        defer { world.scratch.remove() }
        // A package of about 300 KB against a file size limit of 100 KB: the download's write
        // fails (EFBIG) as it would on a full disk (ENOSPC).
        let project = try World.project(
            in: world.url, name: "big", version: "1.1.0", runtime: "1", main: "print('update 1.1.0')\n")
        var generator = SystemRandomNumberGenerator()
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Resources"), withIntermediateDirectories: true)
        try Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
            to: project.appendingPathComponent("Resources/blob.bin"))
        let json = project.appendingPathComponent("flowpkg.json")
        let text = try String(contentsOf: json, encoding: .utf8).replacingOccurrences(
            of: "\"resources\": []", with: "\"resources\": [\"Resources\"]")
        try Data(text.utf8).write(to: json)
        let package = try World.export(project, to: world.url.appendingPathComponent("big.luapkg"), sign: world.key)
        let publish = try FlowpkgProcess.run(["publish", package.path, "--to", world.feed.path, "--sign", world.key])
        #expect(publish.status == 0, "\(publish.stderr)")
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let result = try Self.runLimited(
            fileSizeKB: 100,
            [
                FlowpkgProcess.executable.path, "run", world.embedded.path, "--updates", server.url, "--trusted-key",
                world.pub, "--update-store", world.store.path, "--apply-now",
            ])
        expectEmbeddedRan(result, world, "write error")
        #expect(result.stderr.contains("the update store cannot be written: File too large"), "\(result.stderr)")
        #expect(world.leftoverDownloads.isEmpty, "\(world.leftoverDownloads)")
    }

    /// Runs `arguments` under `ulimit -f` (in 1 KiB blocks), output in files well under it.
    static func runLimited(fileSizeKB: Int, _ arguments: [String]) throws -> FlowpkgProcess.Result {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let out = scratch.url.appendingPathComponent("stdout"), err = scratch.url.appendingPathComponent("stderr")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments =
            ["-c", "ulimit -f \(fileSizeKB); exec \"$@\" >'\(out.path)' 2>'\(err.path)'", "bash"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        return .init(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    @Test func anInterruptedDownloadResumesWithARange() throws {
        let world = try World()
        defer { world.scratch.remove() }
        // A module of about 3 KB compressed, whose transfer the server cuts after 1,000 bytes.
        let filler = (0..<4_000).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".randomElement()! }
        let package = try world.publishUpdate(main: "local filler = '\(String(filler))'\nprint('update 1.1.0')\n")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: package.path)[.size] as? Int)
        let server = try StaticFeedServer(folder: world.feed, mode: "cut", extra: ["--cut", "1000"])
        defer { server.stop() }
        let first = try world.run(server)
        #expect(first.stdout == "embedded 1.0.0\n")
        #expect(first.stderr.contains("bytes received are kept, to resume"), "\(first.stderr)")
        let partial = try #require(world.leftoverDownloads.first)
        let kept = try #require(
            try FileManager.default.attributesOfItem(
                atPath: world.store.appendingPathComponent("com.example.app/downloads/\(partial)").path)[.size] as? Int)
        #expect(kept > 1000 && kept < size)
        // The index, the end record, the first directory records, manifest and signature, the cut module.
        let before = server.answers(atLeast: 5).count
        let second = try world.run(server)
        #expect(second.stdout == "update 1.1.0\n", "\(second.stderr)")
        #expect(second.stderr.contains("resumed after \(kept)"), "\(second.stderr)")
        // The second check asked only for the rest.
        let resumed = server.answers(atLeast: before + 2).dropFirst(before).filter { $0.path.hasPrefix("/packages/") }
        #expect(resumed.count == 1, "\(resumed)")
        #expect(resumed.first?.range == "bytes=\(kept)-")
        #expect(resumed.first?.status == 206)
        #expect(resumed.first?.bytes == size - kept)
        #expect(world.leftoverDownloads.isEmpty)
    }

    @Test func aDeviceWithAnEarlierVersionFetchesOnlyTheChangedEntries() throws {
        let world = try World()
        defer { world.scratch.remove() }
        // Both versions carry the same 400 KB resource; only main.lua changes.
        var generator = SystemRandomNumberGenerator()
        let media = world.url.appendingPathComponent("media.bin")
        // The projects link a file of the repository they share (issue 38: a link must stay in it).
        try FileManager.default.createDirectory(
            at: world.url.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data((0..<400_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: media)
        func project(_ version: String, _ main: String) throws -> URL {
            let root = try World.project(in: world.url, name: "m\(version)", version: version, runtime: "1", main: main)
            let json = root.appendingPathComponent("flowpkg.json")
            let text = try String(contentsOf: json, encoding: .utf8).replacingOccurrences(
                of: "\"resources\": []", with: "\"resources\": [{\"path\": \"\(media.path)\", \"name\": \"media\"}]")
            try Data(text.utf8).write(to: json)
            return root
        }
        let embedded = try World.export(
            try project("1.0.0", "print('embedded 1.0.0')\n"), to: world.url.appendingPathComponent("E.luapkg"),
            sign: nil)
        let update = try World.export(
            try project("1.1.0", "print('update 1.1.0')\n"), to: world.url.appendingPathComponent("U.luapkg"),
            sign: world.key)
        #expect(
            try FlowpkgProcess.run(["publish", update.path, "--to", world.feed.path, "--sign", world.key]).status == 0)
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let result = try FlowpkgProcess.run([
            "run", embedded.path, "--updates", server.url, "--trusted-key", world.pub, "--update-store",
            world.store.path, "--apply-now",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "update 1.1.0\n")
        #expect(result.stderr.contains("reused from packages on this device"), "\(result.stderr)")
        let answers = server.answers(atLeast: 3)
        let packageBytes = answers.filter { $0.path.hasPrefix("/packages/") }.reduce(0) { $0 + $1.bytes }
        #expect(answers.filter { $0.path.hasPrefix("/packages/") }.allSatisfy { $0.status == 206 }, "\(answers)")
        #expect(packageBytes > 0 && packageBytes < 10_000, "\(answers)")
    }

    @Test func anUpdateWhoseStartModuleFailsFallsBackInTheSameLaunch() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate(main: "print('update 1.1.0 starting')\nerror('broken update')\n")
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let result = try world.run(server)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "update 1.1.0 starting\nembedded 1.0.0\n")
        #expect(result.stderr.contains("broken update"))
        #expect(
            result.stderr.contains("failed before it was confirmed healthy")
                && result.stderr.contains("the embedded package 1.0.0 runs instead"), "\(result.stderr)")
        #expect(result.stderr.contains("trace: module main <- package \(world.embedded.path)"), "\(result.stderr)")
    }

    @Test func publishRefusesAnotherIdentifierWithoutForceAndWarnsOfAnotherKey() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate()
        let index = try Data(contentsOf: world.feed.appendingPathComponent("index.json"))
        let otherProject = try World.project(
            in: world.url, name: "other", identifier: "com.example.other", version: "2.0.0", runtime: "1",
            main: "print('other')\n")
        let other = try World.export(
            otherProject, to: world.url.appendingPathComponent("Other.luapkg"), sign: world.key)
        let refused = try FlowpkgProcess.run(["publish", other.path, "--to", world.feed.path, "--sign", world.key])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "nothing was published: channel 'production' serves com.example.app, and \(other.path) is com.example.other"
            ), "\(refused.stderr)")
        #expect(!refused.stderr.contains("deleted"))
        #expect(try Data(contentsOf: world.feed.appendingPathComponent("index.json")) == index)
        let forced = try FlowpkgProcess.run([
            "publish", other.path, "--to", world.feed.path, "--sign", world.key, "--force",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr.contains("it now serves com.example.other (--force)"))

        _ = try FlowpkgProcess.run(["keygen", "other"], in: world.url)
        let otherKey = world.url.appendingPathComponent("other.key").path
        let resigned = try World.export(
            try World.project(
                in: world.url, name: "resigned", identifier: "com.example.other", version: "2.1.0", runtime: "1",
                main: "print('x')\n"), to: world.url.appendingPathComponent("Resigned.luapkg"), sign: otherKey)
        // Signed by a key other than --sign's (the channel's): clients would refuse it without --force.
        let refusedKey = try FlowpkgProcess.run(
            ["publish", resigned.path, "--to", world.feed.path, "--sign", world.key])
        #expect(refusedKey.status == 1)
        #expect(refusedKey.stderr.contains("and --sign gives key"), "\(refusedKey.stderr)")
        #expect(refusedKey.stderr.contains("--force"))
        let otherIndexKey = try FlowpkgProcess.run(
            ["publish", resigned.path, "--to", world.feed.path, "--sign", otherKey])
        #expect(otherIndexKey.status == 1)
        #expect(otherIndexKey.stderr.contains("its clients trust the old key"), "\(otherIndexKey.stderr)")
        let warned = try FlowpkgProcess.run(
            ["publish", resigned.path, "--to", world.feed.path, "--sign", world.key, "--force"])
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("but the channel's current package by key"), "\(warned.stderr)")
    }
}
