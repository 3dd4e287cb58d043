import FlowTestSupport
import Foundation
import Testing

/// A path dependency is held to what the app's own sources are (issue 43, items 10 and 11):
/// validate's module size limit (FP303), and the repository's bounds for what it links (FP111).
@Suite(.serialized) struct PathDependencyLimitsTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func project(_ name: String, at folder: URL, start: String? = "Main", dependencies: String = "") throws {
        try write(
            """
            {"name": "\(name)", "identifier": "com.example.\(name)", "version": "0.1.0", \
            \(start.map { "\"startModule\": \"\($0)\", " } ?? "")"sources": ["Sources"], "resources": [], \
            "environment": "lua"\(dependencies.isEmpty ? "" : ", \"dependencies\": {\(dependencies)}")}

            """, to: folder.appendingPathComponent("flowpkg.json"))
    }

    /// A 9 MB module (sparse: nothing is written) in a path dependency: `lock` read it whole
    /// and succeeded; the same file in the app's Sources is FP303.
    @Test func aPathDependencysModuleHasValidatesSizeLimit() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let lib = scratch.url.appendingPathComponent("lib")
        try project("lib", at: lib, start: nil)
        try write("return {}\n", to: lib.appendingPathComponent("Sources/Lib.lua"))
        let big = lib.appendingPathComponent("Sources/Big.lua")
        FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 9 << 20)
        try handle.close()
        let app = scratch.url.appendingPathComponent("app")
        try project("app", at: app, dependencies: #""lib": {"path": "../lib"}"#)
        try write("print(require('Lib'))\n", to: app.appendingPathComponent("Sources/Main.lua"))
        let cache = scratch.url.appendingPathComponent("cache")
        func check(_ command: [String]) throws {
            let result = try DependenciesEndToEndTests.flowpkg(command, in: app, cache: cache)
            let said = result.stdout + result.stderr
            #expect(result.status == 1, "\(command): \(said)")
            #expect(
                said.contains("[FP303]") && said.contains("Big.lua") && said.contains("9.0 MB"), "\(command): \(said)")
        }
        try check(["lock"])
        #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent("flowpkg.lock").path))
        // Locked while small, then grown: validate reads the dependency's modules again.
        try write("return {}\n", to: big)
        #expect(try DependenciesEndToEndTests.flowpkg(["lock"], in: app, cache: cache).status == 0)
        let grow = try FileHandle(forWritingTo: big)
        try grow.truncate(atOffset: 9 << 20)
        try grow.close()
        try check(["validate"])
    }

    /// `{"x": {"path": "../../Private"}}` in a repository: Private's modules were packaged
    /// without the opt-in a linked resource needs.
    @Test func aPathDependencyOutsideTheRepositoryNeedsTheOptIn() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let repository = scratch.url.appendingPathComponent("repo")
        try FileManager.default.createDirectory(
            at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let privateFolder = scratch.url.appendingPathComponent("Private")
        try project("private", at: privateFolder, start: nil)
        try write("return 'private key'\n", to: privateFolder.appendingPathComponent("Sources/Secret.lua"))
        let lib = repository.appendingPathComponent("lib")
        try project("lib", at: lib, start: nil)
        try write("return 'lib'\n", to: lib.appendingPathComponent("Sources/Lib.lua"))
        let app = repository.appendingPathComponent("apps/app")
        try project("app", at: app, dependencies: #""x": {"path": "../../../Private"}"#)
        try write("print(require('Secret'))\n", to: app.appendingPathComponent("Sources/Main.lua"))
        let cache = scratch.url.appendingPathComponent("cache")
        let output = scratch.url.appendingPathComponent("app.luapkg")
        var result = try DependenciesEndToEndTests.flowpkg(["export", "-o", output.path], in: app, cache: cache)
        var said = result.stdout + result.stderr
        #expect(result.status == 1, "\(said)")
        #expect(
            said.contains("[FP111]") && said.contains("Private") && said.contains("--allow-outside-links"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // With the opt-in, from whoever runs flowpkg, never from flowpkg.json.
        result = try DependenciesEndToEndTests.flowpkg(
            ["export", "-o", output.path], in: app, cache: cache, environment: ["FLOWPKG_ALLOW_OUTSIDE_LINKS": "1"])
        said = result.stdout + result.stderr
        #expect(result.status == 0, "\(said)")
        // A path dependency inside the repository needs nothing.
        try FileManager.default.removeItem(at: app.appendingPathComponent("flowpkg.lock"))
        try project("app", at: app, dependencies: #""lib": {"path": "../../lib"}"#)
        try write("print(require('Lib'))\n", to: app.appendingPathComponent("Sources/Main.lua"))
        result = try DependenciesEndToEndTests.flowpkg(["export", "-o", output.path], in: app, cache: cache)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}

extension PathDependencyLimitsTests {
    /// `App/links/Lib -> ../../Shared/Lib`, and Lib depends on `../../App`: read through the
    /// link, `..` leads back to App, a cycle (FP815). Applied to the link's own path, `..` gave
    /// a folder that does not exist.
    @Test func aCycleThroughALinkIsACycle() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let app = scratch.url.appendingPathComponent("App")
        let lib = scratch.url.appendingPathComponent("Shared/Lib")
        try project("lib", at: lib, start: nil, dependencies: #""app": {"path": "../../App"}"#)
        try write("return 'lib'\n", to: lib.appendingPathComponent("Sources/Lib.lua"))
        try project("app", at: app, dependencies: #""lib": {"path": "links/Lib"}"#)
        try write("print(require('Lib'))\n", to: app.appendingPathComponent("Sources/Main.lua"))
        try FileManager.default.createDirectory(
            at: app.appendingPathComponent("links"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: app.appendingPathComponent("links/Lib").path, withDestinationPath: "../../Shared/Lib")
        let result = try DependenciesEndToEndTests.flowpkg(
            ["lock"], in: app, cache: scratch.url.appendingPathComponent("cache"))
        let said = result.stdout + result.stderr
        #expect(result.status == 1, "\(said)")
        #expect(said.contains("[FP815]") && said.contains("app -> lib -> app"), "\(said)")
        #expect(!said.contains("App/App") && !said.contains("[FP809]"), "\(said)")
    }
}
