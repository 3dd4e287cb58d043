import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// keygen, export --sign, verify --trusted-key and publish, run as a user would.
@Suite struct SigningCommandTests {
    @Test func keygenWritesAPairWithAPrivateFileOnlyTheOwnerReadsAndNeverOverwrites() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let result = try FlowpkgProcess.run(["keygen", "release"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                "wrote release.key (private key, keep it secret) and release.pub (public key), key id "))
        let privateFile = scratch.url.appendingPathComponent("release.key").path
        let attributes = try FileManager.default.attributesOfItem(atPath: privateFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let privateText = try String(contentsOfFile: privateFile, encoding: .utf8)
        let publicText = try String(
            contentsOfFile: scratch.url.appendingPathComponent("release.pub").path, encoding: .utf8)
        #expect(privateText.contains("\nflowpkg-ed25519-private-key "))
        #expect(publicText.contains("\nflowpkg-ed25519-public-key "))

        let again = try FlowpkgProcess.run(["keygen", "release"], in: scratch.url)
        #expect(again.status == 1)
        #expect(
            again.stderr == "error: release.key already exists; keygen never overwrites a key (choose another NAME)\n")
        #expect(try String(contentsOfFile: privateFile, encoding: .utf8) == privateText)
    }

    @Test func exportSignsAndVerifyChecksTheKey() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let project = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        for name in ["release", "other"] {
            #expect(try FlowpkgProcess.run(["keygen", name], in: fixture.url).status == 0)
        }
        let signed = fixture.url.appendingPathComponent("Signed.luapkg").path
        let export = try FlowpkgProcess.run(
            [
                "export", project.path, "-o", signed, "--sign", "release.key",
                "--runtime-version", "7",
            ], in: fixture.url)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("signed: ed25519 key "))
        #expect(try PackageReader.readManifest(at: URL(fileURLWithPath: signed)).runtimeVersion == "7")

        let ok = try FlowpkgProcess.run(["verify", signed, "--trusted-key", "release.pub"], in: fixture.url)
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("\(signed): manifest.sig: signed by trusted key "))

        let wrong = try FlowpkgProcess.run(["verify", signed, "--trusted-key", "other.pub"], in: fixture.url)
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("\(signed): manifest.sig: signed by key "))
        #expect(wrong.stdout.contains("which is not a trusted key"))

        let unsigned = try fixture.package(project, to: "Unsigned.luapkg")
        let none = try FlowpkgProcess.run(["verify", unsigned.path, "--trusted-key", "release.pub"], in: fixture.url)
        #expect(none.status == 1)
        #expect(
            none.stdout.contains("manifest.sig: the package is not signed (no manifest.sig); export it with --sign KEY")
        )
        // Without --trusted-key, an unsigned package verifies as before.
        #expect(try FlowpkgProcess.run(["verify", unsigned.path]).status == 0)

        let wrongFile = try FlowpkgProcess.run(
            ["export", project.path, "-o", signed, "--sign", "release.pub"], in: fixture.url)
        #expect(wrongFile.status == 1)
        #expect(wrongFile.stderr.contains("release.pub: this is a public key; signing needs the private key file"))
    }

    @Test func verifyTellsATamperedSignedPackage() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let project = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        #expect(try FlowpkgProcess.run(["keygen", "release"], in: fixture.url).status == 0)
        let signed = fixture.url.appendingPathComponent("Signed.luapkg")
        #expect(
            try FlowpkgProcess.run(
                ["export", project.path, "-o", signed.path, "--sign", "release.key"], in: fixture.url
            ).status == 0)
        // Other code, a manifest rebuilt to match it, the old signature copied over.
        try fixture.write(project.appendingPathComponent("Sources/main.lua"), "print('evil')\n")
        let rebuilt = try fixture.package(project, to: "Rebuilt.luapkg")
        let script = """
            import sys, zipfile
            signed, rebuilt, out = sys.argv[1:]
            sig = zipfile.ZipFile(signed).read('manifest.sig')
            src = zipfile.ZipFile(rebuilt)
            def put(z, name, data):
                info = zipfile.ZipInfo(name)
                info.external_attr = 0o100644 << 16  # a regular file, as the reader requires
                info.create_system = 3
                z.writestr(info, data)
            with zipfile.ZipFile(out, 'w') as z:
                names = src.namelist()
                put(z, names[0], src.read(names[0]))
                put(z, 'manifest.sig', sig)
                for n in names[1:]: put(z, n, src.read(n))
            """
        let tampered = fixture.url.appendingPathComponent("Tampered.luapkg")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, signed.path, rebuilt.path, tampered.path]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        let result = try FlowpkgProcess.run(["verify", tampered.path, "--trusted-key", "release.pub"], in: fixture.url)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("does not match manifest.json: the package was changed after it was signed"),
            "\(result.stdout)")
    }

    @Test func publishWritesAnIndexAndPackagesNamedByDigest() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let project = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        #expect(try FlowpkgProcess.run(["keygen", "release"], in: fixture.url).status == 0)
        let package = fixture.url.appendingPathComponent("App.luapkg")
        #expect(
            try FlowpkgProcess.run(
                ["export", project.path, "-o", package.path, "--sign", "release.key"], in: fixture.url
            ).status == 0)
        let result = try FlowpkgProcess.run(
            ["publish", package.path, "--to", "feed", "--channel", "beta", "--sign", "release.key"], in: fixture.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: fixture.url.appendingPathComponent("feed/packages").path)
        #expect(files.count == 1)
        let sha = String(try #require(files.first).dropLast(".luapkg".count))
        #expect(
            result.stdout
                == "published com.example.app 1.0.0 on channel beta: feed/packages/\(sha).luapkg (sha256:\(sha), "
                + "\(try Data(contentsOf: package).count) bytes)\n")
        let index =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixture.url.appendingPathComponent("feed/index.json"))) as? [String: Any]
        let beta = (index?["channels"] as? [String: Any])?["beta"] as? [String: Any]
        #expect(beta?["path"] as? String == "packages/\(sha).luapkg")
        #expect(beta?["kind"] as? String == "package")
        #expect(beta?["signed"] as? Bool == true)
        #expect(index?["feedVersion"] as? Int == 1)
        #expect((index?["version"] as? Int ?? 0) >= Int(Date().timeIntervalSince1970) - 60)
        #expect((index?["signature"] as? String)?.hasPrefix("ed25519 ") == true)
        // No temporary file is left beside the index or the packages.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: fixture.url.appendingPathComponent("feed").path)
                .sorted()
                == ["index.json", "packages"])

        let unsigned = try fixture.package(project, to: "Unsigned.luapkg")
        // Clients refuse an unsigned package: publishing one needs --force (it exited 0 before).
        let refusedUnsigned = try FlowpkgProcess.run(
            ["publish", unsigned.path, "--to", "feed", "--sign", "release.key"], in: fixture.url)
        #expect(refusedUnsigned.status == 1)
        #expect(refusedUnsigned.stderr.contains("is not signed"), "\(refusedUnsigned.stderr)")
        #expect(refusedUnsigned.stderr.contains("--force"))
        let warned = try FlowpkgProcess.run(
            ["publish", unsigned.path, "--to", "feed", "--sign", "release.key", "--force"], in: fixture.url)
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("is not signed: clients refuse unsigned updates; export it with --sign KEY"))
        #expect(warned.stdout.hasSuffix(", unsigned\n"))

        let broken = fixture.url.appendingPathComponent("Broken.luapkg")
        try Data("not a zip".utf8).write(to: broken)
        let refused = try FlowpkgProcess.run(
            ["publish", broken.path, "--to", "feed", "--sign", "release.key"], in: fixture.url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("nothing was published: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("does not verify"))
        #expect(!refused.stderr.contains("deleted"))
    }

    @Test func inspectShowsTheRuntimeVersionAndTheSigner() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let project = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let keygen = try FlowpkgProcess.run(["keygen", "release"], in: fixture.url)
        let keyID = try #require(keygen.stdout.split(separator: " ").last).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let package = fixture.url.appendingPathComponent("App.luapkg")
        let export = try FlowpkgProcess.run(
            ["export", project.path, "-o", package.path, "--sign", "release.key", "--runtime-version", "7"],
            in: fixture.url)
        #expect(export.status == 0, "\(export.stderr)")
        let text = try FlowpkgProcess.run(["inspect", package.path])
        #expect(text.stdout.contains("  runtime:      7\n"), "\(text.stdout)")
        #expect(text.stdout.contains("  signature:    ed25519, key id \(keyID)\n"), "\(text.stdout)")
        let json = try FlowpkgProcess.run(["inspect", package.path, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["runtimeVersion"] as? String == "7")
        #expect((object?["signature"] as? [String: Any])?["keyID"] as? String == keyID)
    }
}
