import FlowTestSupport
import Foundation
import Testing

/// Dependency names and vendor paths that would leave `vendor/NAME/` (issue 43, items 3, 4 and
/// 12): a name made of dots from a package manifest, flowpkg.json or the lock; a committed
/// symbolic link under vendor/; a lock hash that is a path.
@Suite(.serialized) struct VendorEscapeTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func projectFile(_ name: String, start: String? = "Main", dependencies: String = "") -> String {
        """
        {"name": "\(name)", "identifier": "com.example.\(name)", "version": "0.1.0", \
        \(start.map { "\"startModule\": \"\($0)\", " } ?? "")"sources": ["Sources"], "resources": [], \
        "environment": "lua"\(dependencies.isEmpty ? "" : ", \"dependencies\": {\(dependencies)}")}

        """
    }

    func sha256(_ file: URL) throws -> String {
        let output = try LocalRocksServer.program(
            "/usr/bin/sha256sum", [file.path], in: file.deletingLastPathComponent())
        return String(output.prefix(64))
    }

    /// An app whose Main.lua prints "app", depending on the package `lib.luapkg` (module `Lib`).
    func appWithPackage(in scratch: URL, libModules: [String: String] = ["Lib": "return 'lib'\n"]) throws -> URL {
        let lib = scratch.appendingPathComponent("lib")
        try write(projectFile("lib", start: nil), to: lib.appendingPathComponent("flowpkg.json"))
        for (module, text) in libModules {
            try write(
                text,
                to: lib.appendingPathComponent("Sources/" + module.replacingOccurrences(of: ".", with: "/") + ".lua"))
        }
        let package = scratch.appendingPathComponent("lib.luapkg")
        let export = try FlowpkgProcess.run(["export", "-o", package.path], in: lib)
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
        let app = scratch.appendingPathComponent("app")
        try write(
            projectFile("app", dependencies: #""lib": {"package": "../lib.luapkg"}"#),
            to: app.appendingPathComponent("flowpkg.json"))
        try write("print('app')\n", to: app.appendingPathComponent("Sources/Main.lua"))
        return app
    }

    /// The library's manifest lists a dependency named `..` providing its module `Sources.Main`:
    /// vendored, that would be `vendor/../Sources/Main.lua`, the app's own start module.
    @Test func aDotDotDependencyInAPackageManifestIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cache = scratch.url.appendingPathComponent("cache")
        let app = try appWithPackage(in: scratch.url, libModules: ["Sources.Main": "print('library text')\n"])
        let package = scratch.url.appendingPathComponent("lib.luapkg")
        try LocalRocksServer.program(
            "/usr/bin/python3",
            [
                "-c",
                """
                import json, sys, zipfile
                path = sys.argv[1]
                with zipfile.ZipFile(path) as old:
                    entries = [(info, old.read(info.filename)) for info in old.infolist()]
                with zipfile.ZipFile(path, "w") as new:
                    for info, data in entries:
                        if info.filename == "manifest.json":
                            manifest = json.loads(data)
                            manifest["dependencies"] = [
                                {"name": "..", "kind": "package", "version": "1.0", "modules": ["Sources.Main"]}]
                            data = json.dumps(manifest, indent=2).encode()
                        new.writestr(info, data)
                """,
                package.path,
            ], in: scratch.url)
        let main = app.appendingPathComponent("Sources/Main.lua")
        let lock = try DependenciesEndToEndTests.flowpkg(["lock"], in: app, cache: cache)
        #expect(lock.status == 1, "\(lock.stdout)\(lock.stderr)")
        #expect((lock.stdout + lock.stderr).contains("'..'"), "\(lock.stdout)\(lock.stderr)")
        _ = try DependenciesEndToEndTests.flowpkg(["vendor"], in: app, cache: cache)
        #expect(try String(contentsOf: main, encoding: .utf8) == "print('app')\n")
        #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent("vendor").path))
    }

    @Test func dotNamesInFlowpkgJSONAreRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let app = scratch.url.appendingPathComponent("app")
        for name in [".", "..", "..."] {
            try write(
                projectFile("app", dependencies: "\"\(name)\": \">= 1.0\""),
                to: app.appendingPathComponent("flowpkg.json"))
            try write("print('app')\n", to: app.appendingPathComponent("Sources/Main.lua"))
            let result = try FlowpkgProcess.run(["validate"], in: app)
            #expect(result.status == 1, "\(name)")
            #expect(
                result.stdout.contains("[FP801]") && result.stdout.contains("'\(name)'")
                    && result.stdout.contains("only of dots"), "\(result.stdout)")
        }
    }

    /// A lock edited by hand (a pull request may): a dependency named `..` whose file the
    /// cache holds; vendor must not write `vendor/../Sources/Main.lua`.
    @Test func aDotDotNameInTheLockIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cache = scratch.url.appendingPathComponent("cache")
        let app = try appWithPackage(in: scratch.url)
        let payload = scratch.url.appendingPathComponent("payload.lua")
        try write("print('library text')\n", to: payload)
        let sha = try sha256(payload)
        try FileManager.default.createDirectory(
            at: cache.appendingPathComponent("files/\(sha.prefix(2))"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: payload, to: cache.appendingPathComponent("files/\(sha.prefix(2))/\(sha)"))
        try write(
            """
            {"lockVersion": 1, "providedByHost": [], "dependencies": [
              {"kind": "package", "name": "..", "version": "1.0", "origin": "../lib.luapkg", "sha256": "\(sha)",
               "requested": null, "dependencies": [],
               "modules": [{"name": "Sources.Main", "path": "Sources/Main.lua", "size": 22, "sha256": "\(sha)"}]}]}

            """, to: app.appendingPathComponent("flowpkg.lock"))
        let result = try DependenciesEndToEndTests.flowpkg(["vendor"], in: app, cache: cache)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("[FP802]"), "\(result.stdout)\(result.stderr)")
        #expect(
            try String(contentsOf: app.appendingPathComponent("Sources/Main.lua"), encoding: .utf8) == "print('app')\n")
    }

    /// `vendor/lib -> ../../outside` committed in the repository: vendor writes nothing there,
    /// and export reads nothing through it.
    @Test func vendorRefusesASymbolicLinkUnderVendor() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cache = scratch.url.appendingPathComponent("cache")
        let app = try appWithPackage(in: scratch.url)
        let outside = scratch.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        #expect(try DependenciesEndToEndTests.flowpkg(["lock"], in: app, cache: cache).status == 0)
        let vendor = app.appendingPathComponent("vendor")
        try FileManager.default.createDirectory(at: vendor, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: vendor.appendingPathComponent("lib").path, withDestinationPath: "../../outside")
        var result = try DependenciesEndToEndTests.flowpkg(["vendor"], in: app, cache: cache)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains("[FP818]")
                && (result.stdout + result.stderr).contains("vendor/lib"),
            "\(result.stdout)\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)

        // A file there, read through the link, would be hashed and named: refused too.
        try write("print('outside')\n", to: outside.appendingPathComponent("Lib.lua"))
        result = try DependenciesEndToEndTests.flowpkg(["validate"], in: app, cache: cache)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("[FP818]") && !result.stdout.contains("[FP803]"), "\(result.stdout)")

        // vendor/ itself a link.
        try FileManager.default.removeItem(at: vendor)
        try FileManager.default.removeItem(at: outside.appendingPathComponent("Lib.lua"))
        try FileManager.default.createSymbolicLink(atPath: vendor.path, withDestinationPath: "../outside")
        result = try DependenciesEndToEndTests.flowpkg(["vendor"], in: app, cache: cache)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("[FP818]"), "\(result.stdout)\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    /// A module's `sha256` in the lock that is a path: validate must not read the file it names
    /// and print that file's real SHA-256 (a hash oracle).
    @Test func aLockHashThatIsAPathIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cache = scratch.url.appendingPathComponent("cache")
        let app = try appWithPackage(in: scratch.url)
        #expect(try DependenciesEndToEndTests.flowpkg(["lock"], in: app, cache: cache).status == 0)
        let secret = scratch.url.appendingPathComponent("target.txt")
        try write("a secret the project must not learn the hash of\n", to: secret)
        let realSHA = try sha256(secret)
        let lockURL = app.appendingPathComponent("flowpkg.lock")
        var lock = try String(contentsOf: lockURL, encoding: .utf8)
        // The module's hash (the first one after "modules"), replaced by a path from the cache's folder.
        let escape = String(repeating: "../", count: 12) + String(secret.path.dropFirst())
        let marker = "\"sha256\" : \""
        let modules = try #require(lock.range(of: "\"modules\""))
        let start = try #require(lock.range(of: marker, range: modules.upperBound..<lock.endIndex))
        let end = try #require(lock[start.upperBound...].firstIndex(of: "\""))
        lock.replaceSubrange(start.upperBound..<end, with: escape)
        try write(lock, to: lockURL)
        let result = try DependenciesEndToEndTests.flowpkg(["validate"], in: app, cache: cache)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains(realSHA), "\(result.stdout)\(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains("[FP802]")
                && (result.stdout + result.stderr).contains("64 hex digits"),
            "\(result.stdout)\(result.stderr)")
    }
}
