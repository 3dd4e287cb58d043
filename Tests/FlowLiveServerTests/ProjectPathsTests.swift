import FlowTestSupport
import Foundation
import Testing

@testable import FlowLiveServer

/// One name per project file: relative to the current folder for a terminal, absolute for links.
@Suite struct ProjectPathsTests {
    func project() throws -> URL {
        let base = try Scratch("paths").url
        let sources = base.appendingPathComponent("App/Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data("return 1\n".utf8).write(to: sources.appendingPathComponent("main.lua"))
        return base
    }

    @Test func namesFromEitherFolderAndOnlyInsideTheProject() throws {
        let base = try project()
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("App")
        let paths = ProjectPaths(root: root, workingDirectory: base.path)
        let absolute = root.standardizedFileURL.path + "/Sources/main.lua"
        // A run's name (from its folder) and a device's (from the project) are the same file.
        #expect(paths.absolute("App/Sources/main.lua") == absolute)
        #expect(paths.absolute("Sources/main.lua") == absolute)
        #expect(paths.absolute(absolute) == absolute)
        #expect(paths.shown(absolute) == "App/Sources/main.lua")
        // Nothing outside the project, however it is spelt.
        #expect(paths.absolute("App/../App/Sources/../../../etc/passwd") == nil)
        #expect(paths.absolute("/etc/passwd") == nil)
        #expect(paths.absolute("Sources") == nil)
        // Inside the project, a file above shows with ../.
        let inside = ProjectPaths(root: root, workingDirectory: root.path + "/Sources")
        #expect(inside.shown(absolute) == "main.lua")
        #expect(
            ProjectPaths(root: root, workingDirectory: root.path + "/Other").shown(absolute) == "../Sources/main.lua")
    }

    @Test func errorsAndTracebacksNameFilesAsATerminalDoes() throws {
        let base = try project()
        defer { try? FileManager.default.removeItem(at: base) }
        let paths = ProjectPaths(root: base.appendingPathComponent("App"), workingDirectory: base.path)
        let text =
            "Sources/main.lua:2: boom\nstack traceback:\n\t[C]: in ?\n\tSources/main.lua:2: in main chunk\n\tother.lua:3: x"
        #expect(
            paths.rewritten(text)
                == "App/Sources/main.lua:2: boom\nstack traceback:\n\t[C]: in ?\n\tApp/Sources/main.lua:2: in main chunk\n\tother.lua:3: x"
        )
        let located = paths.location(in: "error: reloading main: Sources/main.lua:2: boom")
        #expect(located?.path.hasSuffix("/App/Sources/main.lua") == true)
        #expect(located?.line == 2)
    }

    @Test func editorLinks() {
        #expect(
            EditorLinks.vscode.href(path: "/a b/x.lua", line: 3, column: 4, token: "t")
                == "vscode://file/a%20b/x.lua:3:4")
        #expect(EditorLinks(setting: "idea") == .idea)
        #expect(EditorLinks(setting: "  ") == nil)
        #expect(
            EditorLinks(setting: "subl://open?url=file://{path}&line={line}")
                == .url("subl://open?url=file://{path}&line={line}"))
        let code = EditorLinks(setting: "code -g")
        #expect(code == .command(["code", "-g"]))
        #expect(code?.commandWords(path: "/p/x.lua", line: 2, column: 5) == ["code", "-g", "/p/x.lua:2:5"])
        #expect(
            EditorLinks(setting: "nvim --server /tmp/s --remote +{line} {path}")?.commandWords(
                path: "/p/x.lua", line: 2, column: 5) == ["nvim", "--server", "/tmp/s", "--remote", "+2", "/p/x.lua"])
        #expect(
            code?.href(path: "/p/x.lua", line: 2, column: nil, token: "tok")
                == "/v1/open?path=/p/x.lua&line=2&column=1&token=tok")
    }
}
