import FlowTestSupport
import Foundation
import Testing

/// `add` and `remove` edit flowpkg.json through FlowSupport's `AtomicOutput`: a symbolic link
/// stays a link with its file edited (43 #13), the file's mode stays (600 stays 600), and the
/// temporary file of an edit killed with SIGKILL is removed by the next one (43 #14).
@Suite struct ProjectFileEditTests {
    /// An app with a path dependency `kit` beside it, flowpkg.json a link to `real/flowpkg.json`.
    func linkedApp(_ scratch: Scratch) throws -> URL {
        try scratch.file(
            "kit/flowpkg.json",
            #"{"name": "kit", "identifier": "com.example.kit", "version": "0.1.0", "sources": ["Sources"]}"#)
        try scratch.file("kit/Sources/Kit.lua", "return { word = 'kit' }\n")
        try scratch.file(
            "real/flowpkg.json",
            #"{"name": "app", "identifier": "com.example.app", "version": "0.1.0", "startModule": "Main"}"# + "\n")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: scratch.path("real/flowpkg.json").path)
        try scratch.file("app/Sources/Main.lua", "print(require('Kit').word)\n")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("app/flowpkg.json").path, withDestinationPath: "../real/flowpkg.json")
        return scratch.path("app")
    }

    func isLink(_ url: URL) -> Bool { (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil }

    func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func addAndRemoveEditTheLinkedFileAndKeepItsMode() throws {
        let scratch = try Scratch("edit")
        defer { scratch.remove() }
        let app = try linkedApp(scratch)
        let real = scratch.path("real/flowpkg.json")

        let added = try FlowpkgProcess.run(["add", "--path", "../kit"], in: app)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        #expect(isLink(app.appendingPathComponent("flowpkg.json")))
        #expect(try scratch.text("real/flowpkg.json").contains(#""kit""#))
        #expect(try mode(real) == 0o600)

        let removed = try FlowpkgProcess.run(["remove", "kit"], in: app)
        #expect(removed.status == 0, "\(removed.stdout)\(removed.stderr)")
        #expect(isLink(app.appendingPathComponent("flowpkg.json")))
        #expect(try !scratch.text("real/flowpkg.json").contains(#""kit""#))
        #expect(try mode(real) == 0o600)
        #expect(try scratch.entries("real") == ["flowpkg.json"])
        #expect(try scratch.entries("app").allSatisfy { !$0.hasSuffix(".tmp") && !$0.contains("nosync") })
    }

    @Test func aKilledEditsTemporaryFileIsRemovedByTheNextEdit() throws {
        let scratch = try Scratch("edit-killed")
        defer { scratch.remove() }
        let app = try linkedApp(scratch)
        // What an `add` killed between writing and renaming leaves: a temporary file of its
        // name beside the file it edits, its process gone.
        let editor = Process()
        editor.executableURL = URL(fileURLWithPath: "/bin/sleep")
        editor.arguments = ["600"]
        try editor.run()
        kill(editor.processIdentifier, SIGKILL)
        editor.waitUntilExit()
        let left = ".flowpkg.json.\(editor.processIdentifier).77.tmp"
        try scratch.file("real/" + left, "{\"name\": ")

        let added = try FlowpkgProcess.run(["add", "--path", "../kit"], in: app)
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        // Unless the system gave the PID to a new process at once, the leftover is gone.
        #expect(try scratch.entries("real").contains(left) == (kill(editor.processIdentifier, 0) == 0))
        #expect(try scratch.entries("real").filter { $0 != left } == ["flowpkg.json"])
    }
}
