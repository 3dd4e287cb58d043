import FlowTestSupport
import Foundation
import Testing

/// A path dependency whose folder is missing (FP809) is reported where flowpkg.json lists it,
/// `flowpkg.json:LINE:COL`, with the folder in the message and the fix in the hint, by every
/// command that reads it: an editor can jump to the entry.
@Suite(.serialized) struct PathDependencyPlaceTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The lines of a project file, the dependency's entry on line 7 (its value at column 12).
    func projectText(_ name: String, start: String?, dependency: String) -> String {
        """
        {
          "name": "\(name)",
          "identifier": "com.example.\(name)",
          "version": "0.1.0",
          \(start.map { "\"startModule\": \"\($0)\"," } ?? "\"sources\": [\"Sources\"],")
          "dependencies": {
            \(dependency)
          }
        }

        """
    }

    @Test func aMissingFolderIsReportedAtItsEntryInFlowpkgJSON() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let base = scratch.url.resolvingSymlinksInPath().standardizedFileURL
        let app = base.appendingPathComponent("app")
        let kit = base.appendingPathComponent("kit")
        let projectFile = app.appendingPathComponent("flowpkg.json")
        try write(projectText("app", start: "Main", dependency: #""kit": {"path": "../kit"}"#), to: projectFile)
        try write("print(require('Kit').word)\n", to: app.appendingPathComponent("Sources/Main.lua"))
        let before = try Data(contentsOf: projectFile)
        let expected =
            "flowpkg.json:7:12: error: the path dependency 'kit' at '\(kit.path)' cannot be used: "
            + "there is no such folder [FP809]"

        // Resolving (lock, export) meets the missing folder first.
        for arguments in [["lock"], ["export", "-o", base.appendingPathComponent("app.luapkg").path]] {
            let result = try FlowpkgProcess.run(arguments, in: app)
            let output = result.stdout + result.stderr
            #expect(result.status == 1, "\(arguments)")
            #expect(output.split(separator: "\n").contains { $0 == expected }, "\(arguments): \(output)")
            #expect(output.contains("flowpkg new \(kit.path) --template lua-library"), "\(arguments): \(output)")
            #expect(try Data(contentsOf: projectFile) == before)
            #expect(!FileManager.default.fileExists(atPath: app.appendingPathComponent("flowpkg.lock").path))
        }

        // Locked while it was there, gone since: validate and run read the lock, and name the entry too.
        try write(projectText("kit", start: nil, dependency: ""), to: kit.appendingPathComponent("flowpkg.json"))
        try write("return { word = 'kit' }\n", to: kit.appendingPathComponent("Sources/Kit.lua"))
        let locked = try FlowpkgProcess.run(["lock"], in: app)
        #expect(locked.status == 0, "\(locked.stdout)\(locked.stderr)")
        try FileManager.default.removeItem(at: kit)
        for arguments in [["validate"], ["run", "."]] {
            let result = try FlowpkgProcess.run(arguments, in: app)
            let output = result.stdout + result.stderr
            #expect(result.status == 1, "\(arguments)")
            #expect(output.split(separator: "\n").contains { $0 == expected }, "\(arguments): \(output)")
        }
        // From the parent folder, the file is named from there.
        let parent = try FlowpkgProcess.run(["validate", "app"], in: base)
        #expect(parent.stdout.split(separator: "\n").contains { $0 == "app/" + expected }, "\(parent.stdout)")

        // JSON: the same place, for an editor.
        let json = try FlowpkgProcess.run(["validate", "--format", "json"], in: app)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let diagnostic = (object?["diagnostics"] as? [[String: Any]])?.first { $0["code"] as? String == "FP809" }
        #expect(diagnostic?["file"] as? String == "flowpkg.json", "\(json.stdout)")
        #expect(diagnostic?["line"] as? Int == 7 && diagnostic?["column"] as? Int == 12, "\(json.stdout)")
        #expect((diagnostic?["message"] as? String)?.contains(kit.path) == true, "\(json.stdout)")
        #expect(try Data(contentsOf: projectFile) == before)
    }

    /// A path dependency's own path dependency that is missing: reported in that dependency's
    /// flowpkg.json, at its entry.
    @Test func aMissingFolderOfADependencysOwnIsReportedInItsFlowpkgJSON() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let base = scratch.url.resolvingSymlinksInPath().standardizedFileURL
        let app = base.appendingPathComponent("app")
        let kit = base.appendingPathComponent("kit")
        let util = base.appendingPathComponent("util")
        try write(
            projectText("app", start: "Main", dependency: #""kit": {"path": "../kit"}"#),
            to: app.appendingPathComponent("flowpkg.json"))
        try write("print(require('Kit').word)\n", to: app.appendingPathComponent("Sources/Main.lua"))
        try write(
            projectText("kit", start: nil, dependency: #""util": {"path": "../util"}"#),
            to: kit.appendingPathComponent("flowpkg.json"))
        try write("return { word = 'kit' }\n", to: kit.appendingPathComponent("Sources/Kit.lua"))
        let expected =
            "\(kit.path)/flowpkg.json:7:13: error: the path dependency 'util' at '\(util.path)' cannot be used: "
            + "there is no such folder [FP809]"

        let lock = try FlowpkgProcess.run(["lock"], in: app)
        #expect(lock.status == 1)
        #expect((lock.stdout + lock.stderr).split(separator: "\n").contains { $0 == expected }, "\(lock.stderr)")

        try write(projectText("util", start: nil, dependency: ""), to: util.appendingPathComponent("flowpkg.json"))
        try write("return 1\n", to: util.appendingPathComponent("Sources/Util.lua"))
        #expect(try FlowpkgProcess.run(["lock"], in: app).status == 0)
        try FileManager.default.removeItem(at: util)
        let validate = try FlowpkgProcess.run(["validate"], in: app)
        #expect(validate.status == 1)
        #expect(validate.stdout.split(separator: "\n").contains { $0 == expected }, "\(validate.stdout)")
    }
}
