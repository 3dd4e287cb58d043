import FlowTestSupport
import Foundation
import Testing

/// A path dependency edited since the lock (issue 46, bug 6): `--locked` reports FP814 alone,
/// not a `module not found` for the modules that are still there, and `lock` says what it
/// rewrites.
@Suite(.serialized) struct PathDependencyChangeTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    @Test func aChangedPathDependencyIsFP814AloneAndLockSaysWhatChanged() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let app = scratch.url.appendingPathComponent("app")
        let kit = scratch.url.appendingPathComponent("uikit")
        try write(
            #"{"name": "UIKit", "identifier": "com.example.uikit", "version": "1.2.0", "sources": ["Sources"]}"#,
            to: kit.appendingPathComponent("flowpkg.json"))
        try write("return { word = 'kit' }\n", to: kit.appendingPathComponent("Sources/UIKit.lua"))
        try write(
            #"""
            {"name": "app", "identifier": "com.example.app", "version": "0.1.0", "startModule": "Main",
             "sources": ["Sources"], "dependencies": {"UIKit": {"path": "../uikit"}}}
            """#, to: app.appendingPathComponent("flowpkg.json"))
        try write("print(require('UIKit').word)\n", to: app.appendingPathComponent("Sources/Main.lua"))
        var result = try FlowpkgProcess.run(["lock"], in: app)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let firstLock = try Data(contentsOf: app.appendingPathComponent("flowpkg.lock"))

        try write("return { word = 'kit, edited' }\n", to: kit.appendingPathComponent("Sources/UIKit.lua"))
        for arguments in [["export", "--locked", "-o", "../app.luapkg"]] {
            result = try FlowpkgProcess.run(arguments, in: app)
            let output = result.stdout + result.stderr
            #expect(result.status == 1, "\(arguments)")
            #expect(output.contains("[FP814]") && output.contains("UIKit.lua"), "\(arguments): \(output)")
            #expect(!output.contains("[FP401]"), "\(arguments): \(output)")
        }

        // The hint's `flowpkg lock` takes the change and says so.
        result = try FlowpkgProcess.run(["lock"], in: app)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try Data(contentsOf: app.appendingPathComponent("flowpkg.lock")) != firstLock)
        #expect(result.stdout.contains("~ UIKit 1.2.0: its files changed (1 module)"), "\(result.stdout)")
        result = try FlowpkgProcess.run(["export", "--locked", "-o", "../app.luapkg"], in: app)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
