import FlowTestSupport
import Foundation
import Testing

/// Signed packages and over-the-air updates as a user runs them: keygen, export --sign,
/// publish to a feed served by a real static HTTP server on loopback, run --updates.
@Suite(.serialized) struct UpdatesEndToEndTests {
    enum Signing: Equatable { case releaseKey, unsigned, key(String) }

    /// A scratch folder with a key pair, an embedded package and a feed folder.
    struct World {
        let scratch: Scratch
        var url: URL { scratch.url }
        var feed: URL { url.appendingPathComponent("feed") }
        var store: URL { url.appendingPathComponent("store") }
        var key: String { url.appendingPathComponent("release.key").path }
        var pub: String { url.appendingPathComponent("release.pub").path }
        let embedded: URL

        init(embeddedRuntime: String? = "1") throws {
            scratch = try Scratch("cli")
            try FileManager.default.createDirectory(
                at: scratch.url.appendingPathComponent("feed"), withIntermediateDirectories: true)
            let keygen = try FlowpkgProcess.run(["keygen", "release"], in: scratch.url)
            guard keygen.status == 0 else { throw FixtureError(message: "keygen failed: \(keygen.stderr)") }
            let project = try Self.project(
                in: scratch.url, name: "v1.0.0", version: "1.0.0", runtime: embeddedRuntime,
                main: "print('embedded 1.0.0')\n")
            embedded = try Self.export(project, to: scratch.url.appendingPathComponent("App-1.0.0.luapkg"), sign: nil)
        }

        static func project(
            in folder: URL, name: String, identifier: String = "com.example.app", version: String,
            runtime: String?, main: String
        ) throws -> URL {
            let root = folder.appendingPathComponent("projects/\(name)")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
            var fields = [
                "\"name\": \"App\"", "\"identifier\": \"\(identifier)\"", "\"version\": \"\(version)\"",
                "\"startModule\": \"main\"", "\"resources\": []",
            ]
            if let runtime { fields.append("\"runtimeVersion\": \"\(runtime)\"") }
            try Data(("{" + fields.joined(separator: ", ") + "}\n").utf8).write(
                to: root.appendingPathComponent("flowpkg.json"))
            try Data(main.utf8).write(to: root.appendingPathComponent("Sources/main.lua"))
            return root
        }

        static func export(_ project: URL, to output: URL, sign key: String?) throws -> URL {
            let result = try FlowpkgProcess.run(
                ["export", project.path, "-o", output.path] + (key.map { ["--sign", $0] } ?? []))
            guard result.status == 0 else {
                throw FixtureError(message: "export failed: \(result.stderr)\(result.stdout)")
            }
            return output
        }

        /// Exports an update project and publishes it to the feed; returns the package.
        @discardableResult
        func publishUpdate(
            version: String = "1.1.0", identifier: String = "com.example.app", runtime: String? = "1",
            main: String? = nil, sign: Signing = .releaseKey, channel: String? = nil
        ) throws -> URL {
            let signingKey: String?
            switch sign {
            case .releaseKey: signingKey = key
            case .unsigned: signingKey = nil
            case .key(let path): signingKey = path
            }
            let project = try Self.project(
                in: url, name: "v\(version)-\(UUID().uuidString.prefix(6))", identifier: identifier,
                version: version, runtime: runtime, main: main ?? "print('update \(version)')\n")
            let package = try Self.export(
                project, to: url.appendingPathComponent("App-\(version)-\(UUID().uuidString.prefix(6)).luapkg"),
                sign: signingKey)
            let result = try FlowpkgProcess.run(
                ["publish", package.path, "--to", feed.path, "--sign", key] + (channel.map { ["--channel", $0] } ?? [])
                    // What clients must refuse is published all the same, to see them refuse it.
                    + (sign == .releaseKey ? [] : ["--force"]))
            guard result.status == 0 else { throw FixtureError(message: "publish failed: \(result.stderr)") }
            return package
        }

        func run(_ server: StaticFeedServer, applyNow: Bool = true, extra: [String] = []) throws
            -> FlowpkgProcess.Result
        {
            try FlowpkgProcess.run(
                [
                    "run", embedded.path, "--updates", server.url, "--trusted-key", pub,
                    "--update-store", store.path, "--trace",
                ] + (applyNow ? ["--apply-now"] : []) + extra)
        }

        var storedPackages: [String] {
            let folder = store.appendingPathComponent("com.example.app/packages")
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        }

        var leftoverDownloads: [String] {
            let folder = store.appendingPathComponent("com.example.app/downloads")
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        }
    }

    @Test func newerSignedUpdateRunsAndTraceNamesIt() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate()
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let result = try world.run(server)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "update 1.1.0\n")
        #expect(result.stderr.contains("update: update 1.1.0 ("), "\(result.stderr)")
        #expect(result.stderr.contains("downloaded and verified"))
        #expect(result.stderr.contains("running update 1.1.0"))
        let stored = try #require(world.storedPackages.first)
        #expect(
            result.stderr.contains(
                "trace: module main <- update \(world.store.path)/com.example.app/packages/\(stored)"),
            "\(result.stderr)")
        // The next start uses it without asking the feed first.
        server.stop()
        let offline = try world.run(server, applyNow: false)
        #expect(offline.status == 0)
        #expect(offline.stdout == "update 1.1.0\n")
        #expect(offline.stderr.contains("cannot be read"), "\(offline.stderr)")
    }

    /// Each refused update: the embedded package runs, and stderr says why.
    static let refusals: [(name: String, publish: @Sendable (World) throws -> Void, message: String)] = [
        (
            "unsigned", { try $0.publishUpdate(sign: .unsigned) },
            "the package is not signed (no manifest.sig); export it with --sign KEY"
        ),
        (
            "wrong key",
            { world in
                let other = try FlowpkgProcess.run(["keygen", "other"], in: world.url)
                guard other.status == 0 else { throw FixtureError(message: other.stderr) }
                try world.publishUpdate(sign: .key(world.url.appendingPathComponent("other.key").path))
            }, "which is not a trusted key"
        ),
        (
            "other identifier", { try $0.publishUpdate(identifier: "com.example.other") },
            "the update feed's channel 'production' is for com.example.other, not com.example.app"
        ),
        (
            "incompatible runtime", { try $0.publishUpdate(runtime: "2") },
            "; not downloaded: it needs runtime version 2; this host runs 1"
        ),
        (
            "older than embedded", { try $0.publishUpdate(version: "0.9.0") },
            "update: the feed offers update 0.9.0 ("
        ),
    ]

    @Test(arguments: 0..<5) func refusedUpdateLeavesEmbeddedRunning(_ index: Int) throws {
        let (name, publish, message) = Self.refusals[index]
        let world = try World()
        defer { world.scratch.remove() }
        try publish(world)
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let result = try world.run(server)
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stdout == "embedded 1.0.0\n", "\(name)")
        #expect(result.stderr.contains(message), "\(name): \(result.stderr)")
        #expect(result.stderr.contains("update: running the embedded package 1.0.0"), "\(name)")
        #expect(
            result.stderr.contains("trace: module main <- package \(world.embedded.path)"), "\(name): \(result.stderr)")
        if name == "older than embedded" {
            #expect(
                result.stderr.contains("; not downloaded: it is not newer than the embedded package 1.0.0"),
                "\(result.stderr)")
        }
        #expect(world.leftoverDownloads.isEmpty)
    }

    @Test func unsignedAndWrongKeyDownloadsAreDeleted() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate(sign: .unsigned)
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let result = try world.run(server)
        #expect(result.stderr.contains("the update 1.1.0 was refused and deleted"), "\(result.stderr)")
        #expect(world.storedPackages.isEmpty)
        #expect(world.leftoverDownloads.isEmpty)
    }

    @Test func truncatedDownloadIsDeletedNeverUsed() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate()
        let packages = world.feed.appendingPathComponent("packages")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: packages.path).first)
        let file = packages.appendingPathComponent(name)
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let result = try world.run(server)
        #expect(result.status == 0)
        #expect(result.stdout == "embedded 1.0.0\n")
        #expect(
            result.stderr.contains(
                "the update 1.1.0 was refused and deleted: the download is \(bytes.count / 2) bytes; the feed lists \(bytes.count)"
            ),
            "\(result.stderr)")
        #expect(world.storedPackages.isEmpty)
        #expect(world.leftoverDownloads.isEmpty)
    }

    @Test func updateThatFailsItsLaunchIsMarkedFailedAndEmbeddedRunsNext() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate(main: "print('update 1.1.0 starting')\nerror('broken update')\n")
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        // The same launch falls back to the embedded package (UpdatesHostileFeedTests checks its words).
        let first = try world.run(server)
        #expect(first.status == 0)
        #expect(first.stdout == "update 1.1.0 starting\nembedded 1.0.0\n")
        #expect(first.stderr.contains("broken update"))
        let second = try world.run(server)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "embedded 1.0.0\n")
        #expect(second.stderr.contains("failed at an earlier launch; it is not downloaded again"), "\(second.stderr)")
        #expect(second.stderr.contains("not used: it failed at an earlier launch before the host confirmed it healthy"))
    }

    @Test func updateWhoseProcessStopsBeforeConfirmingIsMarkedFailed() throws {
        let world = try World()
        defer { world.scratch.remove() }
        // The process ends before the start module returns: no markHealthy, as in a crash.
        try world.publishUpdate(main: "print('update 1.1.0 exits')\nos.exit(3)\n")
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let first = try world.run(server)
        #expect(first.status == 3)
        let second = try world.run(server, applyNow: false)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "embedded 1.0.0\n")
        #expect(
            second.stderr.contains("was not confirmed healthy at its last launch; it is marked failed"),
            "\(second.stderr)")
    }

    @Test func rollbackReturnsClientsToEmbedded() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate()
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        #expect(try world.run(server).stdout == "update 1.1.0\n")
        let rollback = try FlowpkgProcess.run([
            "publish", "--rollback", "--identifier", "com.example.app", "--to", world.feed.path, "--sign", world.key,
        ])
        #expect(rollback.status == 0, "\(rollback.stderr)")
        #expect(rollback.stdout.contains("published a rollback for com.example.app on channel production"))
        let after = try world.run(server)
        #expect(after.status == 0)
        #expect(after.stdout == "embedded 1.0.0\n")
        #expect(after.stderr.contains("the update feed rolled back"), "\(after.stderr)")
        #expect(world.storedPackages.isEmpty)
    }

    @Test func withoutApplyNowTheUpdateIsDownloadedForTheNextStart() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate()
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        let first = try world.run(server, applyNow: false)
        #expect(first.status == 0)
        #expect(first.stdout == "embedded 1.0.0\n")
        #expect(first.stderr.contains("downloaded and verified (fetched "), "\(first.stderr)")
        #expect(first.stderr.contains("; it runs from the next start"), "\(first.stderr)")
        let second = try world.run(server, applyNow: false)
        #expect(second.stdout == "update 1.1.0\n")
        #expect(second.stderr.contains("update 1.1.0 is already downloaded"), "\(second.stderr)")
    }

    @Test func appUpdateWithANewerEmbeddedPackageWinsOverAStoredUpdate() throws {
        let world = try World()
        defer { world.scratch.remove() }
        try world.publishUpdate()
        let server = try StaticFeedServer(folder: world.feed)
        defer { server.stop() }
        #expect(try world.run(server).stdout == "update 1.1.0\n")
        // The app ships again with 1.2.0 embedded; the downloaded 1.1.0 is still in the store.
        let project = try World.project(
            in: world.url, name: "v1.2.0", version: "1.2.0", runtime: "1",
            main: "print('embedded 1.2.0')\n")
        let newer = try World.export(project, to: world.url.appendingPathComponent("App-1.2.0.luapkg"), sign: nil)
        let result = try FlowpkgProcess.run([
            "run", newer.path, "--updates", server.url, "--trusted-key", world.pub,
            "--update-store", world.store.path,
        ])
        #expect(result.status == 0)
        #expect(result.stdout == "embedded 1.2.0\n")
        #expect(result.stderr.contains("update 1.1.0 ("), "\(result.stderr)")
        #expect(result.stderr.contains("not used: it is not newer than the embedded package 1.2.0"), "\(result.stderr)")
    }

    @Test func httpsFeedOnLinuxIsAClearUsageError() throws {
        #if !canImport(Darwin)
            let world = try World()
            defer { world.scratch.remove() }
            let result = try FlowpkgProcess.run([
                "run", world.embedded.path, "--updates", "https://updates.example.com/app",
                "--trusted-key", world.pub,
            ])
            #expect(result.status == 64)
            #expect(result.stderr.contains("https:// feeds are not supported on Linux"), "\(result.stderr)")
            #expect(result.stderr.contains("http://"))
        #endif
    }

    @Test func updatesNeedATrustedKey() throws {
        let result = try FlowpkgProcess.run(["run", "x.luapkg", "--updates", "http://127.0.0.1:1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--updates needs --trusted-key PUB"))
    }
}
