import FlowSupport
import FlowTestSupport
import Foundation
import Testing

@testable import FlowFormat

/// `FormatRun` over many files on every core: `inOrder` sees each result once, in the order of
/// the files, whatever order the workers finish in; `check` diffs carry `diffName`'s name; and
/// `FormatFiles` lists `.lua` files, not folders named so.
@Suite struct FormatRunTests {
    @Test func inOrderSeesEveryResultInTheFilesOrderWithTheDiffNameGiven() throws {
        let scratch = try Scratch("format-run")
        defer { scratch.remove() }
        // Files of very different sizes, so workers finish out of order; some already formatted.
        var files: [String] = []
        var formatted: Set<String> = []
        for index in 0..<40 {
            let lines = index % 5 == 0 ? 3_000 : 1 + index % 3
            let text = index % 4 == 1 ? "local x = 1\n" : String(repeating: "print( 'x' )\n", count: lines)
            files.append(try scratch.file("f\(index).lua", text).path)
            if index % 4 == 1 { formatted.insert("f\(index).lua") }
        }
        files.insert(scratch.path("missing.lua").path, at: 7)
        var run = FormatRun()
        run.check = true
        run.diffName = { "shown/" + URL(fileURLWithPath: $0).lastPathComponent }
        let seen = Locked([FormatResult]())
        run.inOrder = { result in
            seen.withLock { $0.append(result) }
            return result
        }
        let results = run.run(files: files)
        #expect(results.map(\.path) == files)
        #expect(seen.withLock { $0 } == results)
        for result in results {
            let name = URL(fileURLWithPath: result.path).lastPathComponent
            switch result.outcome {
            case .wouldChange(let diff):
                #expect(!formatted.contains(name), "\(name)")
                #expect(diff.hasPrefix("--- shown/\(name)\n+++ shown/\(name)\n@@ -1,"), "\(name)")
            case .unchanged: #expect(formatted.contains(name), "\(name)")
            case .failed(let problem): #expect(name == "missing.lua" && problem.kind == .unusable)
            case .formatted: Issue.record("\(name) was written in check mode")
            }
        }
        var plain = FormatRun()
        plain.check = true
        guard case .wouldChange(let diff) = plain.run(files: [files[0]])[0].outcome else {
            Issue.record("f0.lua should change")
            return
        }
        #expect(diff.hasPrefix("--- \(files[0])\n+++ \(files[0])\n"))
    }

    /// What `inOrder` returns takes the result's place: `fmt --check` keeps no diff it wrote.
    @Test func runReturnsWhatInOrderReturns() throws {
        let scratch = try Scratch("format-run-kept")
        defer { scratch.remove() }
        let files = try (0..<12).map {
            try scratch.file("f\($0).lua", $0 % 3 == 0 ? "return 1\n" : "print( 'x' )\n").path
        }
        var run = FormatRun()
        run.check = true
        let written = Locked([String]())
        run.inOrder = { result in
            guard case .wouldChange(let diff) = result.outcome else { return result }
            written.withLock { $0.append(diff) }
            return FormatResult(path: result.path, outcome: .wouldChange(diff: ""))
        }
        let results = run.run(files: files)
        #expect(results.map(\.path) == files)
        #expect(written.withLock { $0.count } == 8)
        for (index, result) in results.enumerated() {
            #expect(result.outcome == (index % 3 == 0 ? .unchanged : .wouldChange(diff: "")), "\(index)")
        }
        #expect(written.withLock { $0 }.allSatisfy { $0.contains("+print(\"x\")\n") })
    }

    @Test func aFolderNamedLikeALuaFileIsNotListedALinkIs() throws {
        let scratch = try Scratch("format-files")
        defer { scratch.remove() }
        _ = try scratch.file("b.lua", "return 1\n")
        _ = try scratch.file("folder.lua/inner.lua", "return 2\n")
        _ = try scratch.folder("empty.lua")
        _ = try scratch.file("a/c.lua", "return 3\n")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("link.lua").path, withDestinationPath: scratch.path("a").path)
        let root = scratch.url.path
        let found = FormatFiles(root: root).files(in: [root])
        #expect(found == ["a/c.lua", "b.lua", "folder.lua/inner.lua", "link.lua"].map { root + "/" + $0 })
        for path in found { #expect(!FileManager.default.isFolder(atPath: path)) }
        #expect(FileManager.default.isFolder(atPath: scratch.path("empty.lua").path))
        #expect(!FileManager.default.isFolder(atPath: scratch.path("link.lua").path))
        #expect(!FileManager.default.isFolder(atPath: scratch.path("missing").path))
    }
}
