import FlowTestSupport
import Foundation
import Testing

/// `flowpkg export` never overwrites what is not a package: a source file, a note, a zip of
/// someone else's, a folder. Each refusal leaves the bytes as they were.
@Suite struct ExportSafetyTests {
    func project(_ fixture: RunFixture) throws -> URL {
        try fixture.project("App", modules: ["main.lua": "print('hi')\n"], resources: ["note.txt": "a note"])
    }

    func bytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    @Test func aSourceFileIsNeverReplaced() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(fixture)
        let source = root.appendingPathComponent("Sources/main.lua")
        let before = try bytes(source)
        let result = try FlowpkgProcess.run(["export", "-o", "Sources/main.lua"], in: root)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "Sources/main.lua: error: refusing to replace module main of the project: export never overwrites the project's own files [FP506]"
            ))
        #expect(
            result.stdout.contains("hint: write the package elsewhere with -o, or pass --force if you really mean it"))
        #expect(try bytes(source) == before)
        // Nothing new beside it either: no temporary file, no package.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path) == [
                "main.lua"
            ])
    }

    @Test func nothingIsWrittenIntoTheProjectsContentFolders() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(fixture)
        let result = try FlowpkgProcess.run(["export", "-o", "Resources/App.luapkg"], in: root)
        #expect(result.status == 1)
        #expect(result.stdout.contains("refusing to write the package into the project's resources folder Resources"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Resources/App.luapkg").path))
        let resource = try FlowpkgProcess.run(["export", "-o", "Resources/note.txt"], in: root)
        #expect(resource.status == 1)
        #expect(resource.stdout.contains("refusing to replace resource note.txt of the project"))
        #expect(try bytes(root.appendingPathComponent("Resources/note.txt")) == Data("a note".utf8))
        let projectFile = try FlowpkgProcess.run(
            ["export", root.path, "-o", root.appendingPathComponent("flowpkg.json").path],
            in: fixture.url)
        #expect(projectFile.status == 1)
        #expect(projectFile.stdout.contains("refusing to replace flowpkg.json of the project"))
    }

    @Test func aFileThatIsNotAPackageNeedsForce() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(fixture)
        // The extension does not make a package: the content decides.
        for (name, content) in [
            ("notes.txt", Data("my notes\n".utf8)), ("fake.luapkg", Data("not a zip".utf8)),
            ("other.luapkg", try Self.zip(firstEntry: "README", in: fixture)),
        ] {
            let target = fixture.url.appendingPathComponent(name)
            try content.write(to: target)
            let refused = try FlowpkgProcess.run(["export", root.path, "-o", name], in: fixture.url)
            #expect(refused.status == 1, "\(name)")
            #expect(
                refused.stdout.contains(
                    "\(name): error: refusing to replace a file that is not a flowpkg package (a .luapkg is a zip whose first entry is manifest.json) [FP506]"
                ),
                "\(refused.stdout)")
            #expect(refused.stdout.contains("hint: choose another file with -o, or pass --force to replace it"))
            #expect(try bytes(target) == content, "\(name)")
        }
        let forced = try FlowpkgProcess.run(["export", root.path, "-o", "notes.txt", "--force"], in: fixture.url)
        #expect(forced.status == 0, "\(forced.stdout)")
        let verified = try FlowpkgProcess.run(["verify", "notes.txt"], in: fixture.url)
        #expect(verified.status == 0)
    }

    @Test func aPackageIsReplacedWithoutForce() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(fixture)
        let first = try FlowpkgProcess.run(["export", root.path, "-o", "App.luapkg"], in: fixture.url)
        #expect(first.status == 0)
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "print('changed')\n")
        let second = try FlowpkgProcess.run(["export", root.path, "-o", "App.luapkg"], in: fixture.url)
        #expect(second.status == 0, "\(second.stdout)")
        let ran = try FlowpkgProcess.run(["run", "App.luapkg"], in: fixture.url)
        #expect(ran.stdout == "changed\n")
    }

    @Test func aFolderIsRefusedWithAClearMessage() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(fixture)
        let folder = fixture.url.appendingPathComponent("dist")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: folder.appendingPathComponent("keep.txt"))
        for force in [false, true] {
            let result = try FlowpkgProcess.run(
                ["export", root.path, "-o", "dist"] + (force ? ["--force"] : []), in: fixture.url)
            #expect(result.status == 1)
            #expect(result.stdout.contains("dist: error: cannot write the package: it is a folder [FP501]"))
            #expect(result.stdout.contains("hint: -o takes the package's file name, e.g. -o dist/Demo-1.0.0.luapkg"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep.txt"])
        }
    }

    /// A zip made by Python's zipfile whose first entry is not manifest.json.
    static func zip(firstEntry: String, in fixture: RunFixture) throws -> Data {
        let target = fixture.url.appendingPathComponent("made-\(UUID().uuidString).zip")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr(sys.argv[2], "hello")
                z.writestr("manifest.json", "{}")
            """, target.path, firstEntry,
        ]
        try python.run()
        python.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: target) }
        return try Data(contentsOf: target)
    }
}
