import FlowLiveProtocol
import FlowTestSupport
import Foundation
import Testing

@testable import FlowDebugAdapter

/// Chunk names to the editor's files: relative to the working directory, or (a program
/// started in the project's parent folder, issue 46 bug 7) to a folder above it.
@Suite struct SourceMapTests {
    @Test func aChunkNamedFromTheParentFolderIsTheProjectsFile() throws {
        let scratch = try Scratch("sourcemap")
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("Demo")
        let main = root.appendingPathComponent("Sources/Main.lua")
        try FileManager.default.createDirectory(at: main.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("return 1\n".utf8).write(to: main)
        let outside = scratch.url.appendingPathComponent("Other.lua")
        try Data("return 2\n".utf8).write(to: outside)
        var map = SourceMap(workingDirectory: root.path)
        let path = main.standardizedFileURL.path
        #expect(map.source(for: DebugSourceKey(chunk: "Sources/Main.lua", module: "Main")).path == path)
        #expect(map.source(for: DebugSourceKey(chunk: "Demo/Sources/Main.lua", module: "Main")).path == path)
        #expect(map.source(for: DebugSourceKey(chunk: "./Demo/Sources/Main.lua")).path == path)
        // Above the working directory, but not inside it: no file of this project.
        let other = map.source(for: DebugSourceKey(chunk: "Other.lua"))
        #expect(other.path == nil && (other.sourceReference ?? 0) > 0)
    }
}
