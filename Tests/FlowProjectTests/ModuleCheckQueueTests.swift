import FlowTestSupport
import Foundation
import Testing
@testable import FlowProject

/// Files added while workers already run are each checked once, and filed under their index.
@Suite struct ModuleCheckQueueTests {
    func temporaryFolder() throws -> URL {
        let folder = try Scratch("queue").url
        return folder
    }

    @Test func filesAddedInBatchesWhileWorkersRun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [ModuleCheckQueue.File] = []
        for index in 0..<60 {
            let path = folder.appendingPathComponent("m\(index).lua").path
            // Every third file does not compile: its outcome must carry its own path.
            let source = index % 3 == 0 ? "local x = = \(index)\n" : "return \(index)\n"
            try Data(source.utf8).write(to: URL(fileURLWithPath: path))
            files.append(.init(path: path, chunkName: "m\(index).lua"))
        }
        let queue = ModuleCheckQueue(maximumSize: 1 << 20)
        let done = DispatchGroup()
        for _ in 0..<3 {
            done.enter()
            Thread {
                queue.work()
                done.leave()
            }.start()
        }
        for batch in stride(from: 0, to: files.count, by: 25) {
            let first = queue.add(Array(files[batch..<min(files.count, batch + 25)]))
            #expect(first == batch)
            Thread.sleep(forTimeInterval: 0.01)
        }
        queue.finish()
        done.wait()
        let outcomes = queue.outcomes()
        #expect(outcomes.count == files.count)
        for (index, outcome) in outcomes.enumerated() {
            let outcome = try #require(outcome)
            if index % 3 == 0 {
                #expect(outcome.diagnostics.map(\.code.code) == ["FP301"])
                #expect(outcome.diagnostics.first?.file == files[index].path)
                #expect(outcome.facts == nil)
            } else {
                #expect(outcome.diagnostics.isEmpty)
                #expect(outcome.facts != nil)
            }
        }
    }

    @Test func workersReturnWhenNothingComes() {
        let queue = ModuleCheckQueue(maximumSize: 1 << 20)
        let done = DispatchGroup()
        done.enter()
        Thread {
            queue.work()
            done.leave()
        }.start()
        queue.finish()
        done.wait()
        #expect(queue.outcomes().isEmpty)
    }

    /// A file that discovery rejects as a module is compiled early, but nothing of it is reported
    /// beyond why it is no module.
    @Test func filesThatAreNoModulesReportOnlyTheirName() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(
            at: sources.appendingPathComponent("Foo"), withIntermediateDirectories: true)
        try Data(
            #"{"name": "Q", "identifier": "com.example.q", "version": "1.0.0", "sources": ["Sources", "More"]}"#.utf8
        )
        .write(to: folder.appendingPathComponent("flowpkg.json"))
        let more = folder.appendingPathComponent("More")
        try FileManager.default.createDirectory(at: more, withIntermediateDirectories: true)
        try Data("local = 1\n".utf8).write(to: sources.appendingPathComponent("bad?name.lua"))
        try Data("return {}\n".utf8).write(to: sources.appendingPathComponent("Foo.lua"))
        try Data("local = 2\n".utf8).write(to: more.appendingPathComponent("Foo.lua"))
        try Data("return undefinedThing\n".utf8).write(to: sources.appendingPathComponent("Main.lua"))
        let report = Validator.validate(projectAt: folder)
        #expect(report.diagnostics.map(\.code.code).sorted() == ["FP201", "FP202", "FP405"])
        #expect(report.moduleCount == 2)
    }

    /// A dotted file is a script (loaded by path): no FP201, but compiled and analysed as a
    /// module is, and a require that would reach it by a dotted name gets a warning.
    @Test func dottedFilesAreScriptsThatAreCheckedLikeModules() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = folder.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(
            at: sources.appendingPathComponent("muc/atl.wmf"), withIntermediateDirectories: true)
        try Data(#"{"name": "Q", "identifier": "com.example.q", "version": "1.0.0", "startModule": "main"}"#.utf8)
            .write(to: folder.appendingPathComponent("flowpkg.json"))
        try Data("local = 1\n".utf8).write(to: sources.appendingPathComponent("muc/password.lib.lua"))
        try Data("return undefinedThing\n".utf8).write(to: sources.appendingPathComponent("muc/atl.wmf/init.lua"))
        try Data("local ok = pcall(require, 'muc.password.lib')\nreturn dofile('muc/atl.wmf/init.lua')\n".utf8)
            .write(to: sources.appendingPathComponent("main.lua"))
        let report = Validator.validate(projectAt: folder)
        // `ok` is never read: luacheck's 211 (FP421).
        #expect(report.diagnostics.map(\.code.code).sorted() == ["FP301", "FP402", "FP405", "FP421"])
        #expect(
            report.diagnostics.first { $0.code.code == "FP402" }?.message.contains("does not reach the script") == true)
        #expect(report.project?.scripts.map(\.relativePath) == ["muc/atl.wmf/init.lua", "muc/password.lib.lua"])
    }
}
