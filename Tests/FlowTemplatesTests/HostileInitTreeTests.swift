import Foundation
import Testing

@testable import FlowTemplates

/// Issue 43's `init` items 6 to 9 and issue 46's rockspecs/: `init` reads a hostile tree as a
/// person would, and ends.
@Suite struct HostileInitTreeTests {
    static func write(_ files: [String: String], in root: URL) throws {
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// Item 6: links to `.` and to `/` are not followed, so the scan ends, with the real files.
    @Test func symlinkLoopsEnd() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        try Self.write(["main.lua": "require 'lib.util'\n", "lib/util.lua": "return {}\n"], in: scratch.url)
        try FileManager.default.createSymbolicLink(atPath: scratch.url.path + "/a", withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: scratch.url.path + "/lib/b", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: scratch.url.path + "/root", withDestinationPath: "/")
        let code = try #require(ExistingCode.scan(scratch.url))
        #expect(code.sources == ".")
        #expect(code.startModule == "main")
    }

    /// Item 8: a FIFO named like a C module and one named like a Lua module are never opened.
    @Test func aFifoIsNeverOpened() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        try Self.write(["main.lua": "require 'pwn'\nrequire 'other'\n"], in: scratch.url)
        #expect(mkfifo(scratch.url.path + "/pwn.so", 0o600) == 0)
        #expect(mkfifo(scratch.url.path + "/other.lua", 0o600) == 0)
        let code = try #require(ExistingCode.scan(scratch.url))
        #expect(code.startModule == "main")
        // On the C path, the FIFO is looked at, not opened: no C module is there.
        #expect(!ExistingCode.cPathHas("pwn", cpath: scratch.url.path + "/?.so"))
        FileManager.default.createFile(atPath: scratch.url.path + "/real.so", contents: Data([0]))
        #expect(ExistingCode.cPathHas("real", cpath: scratch.url.path + "/?.so"))
    }

    /// Item 9: a 1 GB sparse module is not read whole for its requires (validate's 8 MB cap).
    @Test func aHugeModuleIsNotReadWhole() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        try Self.write(["main.lua": "return 1\n"], in: scratch.url)
        let huge = scratch.url.appendingPathComponent("huge.lua")
        FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let code = try #require(ExistingCode.scan(scratch.url))
        #expect(code.startModule == "main")
    }

    /// Item 7 and issue 46: a rockspec in rockspecs/ is read, through the bounded evaluator; one
    /// that loops forever is stopped and init goes on.
    @Test func rockspecsAreReadWithinTheBudget() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        try Self.write(
            [
                "src/lib/init.lua": "return require 'pl.utils'\n",
                "rockspecs/lib-1.0-1.rockspec": """
                package = "lib"
                version = "1.0-1"
                dependencies = { "lua >= 5.1", "penlight >= 1.13" }
                build = { type = "builtin", modules = { lib = "src/lib/init.lua" } }
                """,
            ], in: scratch.url)
        let code = try #require(ExistingCode.scan(scratch.url))
        #expect(code.dependencies.map(\.name) == ["penlight"], "\(code.dependencies)")
        #expect(code.decisions.contains("read rockspecs/lib-1.0-1.rockspec"), "\(code.decisions)")

        try Data("package = 'x'\nwhile true do end\n".utf8).write(
            to: scratch.url.appendingPathComponent("rockspecs/lib-1.0-1.rockspec"))
        let stopped = try #require(ExistingCode.scan(scratch.url))
        #expect(stopped.dependencies.isEmpty)
    }
}
