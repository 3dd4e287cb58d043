import FlowDependencies
import FlowLiveServer
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// `flowpkg serve` serves a path dependency's modules and watches its folder.
@Suite struct LiveDependenciesTests {
    @Test func aPathDependencyIsServedAndWatched() throws {
        let base = try Scratch("serve-deps").url
            .standardizedFileURL
        defer { try? FileManager.default.removeItem(at: base) }
        func write(_ path: String, _ text: String) throws {
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write(
            "ui-kit/flowpkg.json",
            #"{"name": "ui-kit", "identifier": "com.example.uikit", "version": "0.2.0", "resources": []}"#)
        try write("ui-kit/Sources/TextKit.lua", "return 'v1'\n")
        try write(
            "app/flowpkg.json",
            #"{"name": "app", "identifier": "com.example.app", "version": "1.0.0", "startModule": "Main", "resources": [], "dependencies": {"ui-kit": {"path": "../ui-kit"}}}"#
        )
        try write("app/Sources/Main.lua", "print(require 'TextKit')\n")
        let app = base.appendingPathComponent("app")
        #expect(DependencyLocking.lock(projectAt: app, options: DependencyOptions()).succeeded)

        let project = try LiveProject(root: app)
        #expect(project.watchedFolders.contains(base.appendingPathComponent("ui-kit").standardizedFileURL))
        #expect(try project.moduleData(named: "TextKit") == Array("return 'v1'\n".utf8))
        // An edit is served at once: the module is read from the dependency's folder.
        try write("ui-kit/Sources/TextKit.lua", "return 'v2'\n")
        #expect(try project.moduleData(named: "TextKit") == Array("return 'v2'\n".utf8))
    }
}
