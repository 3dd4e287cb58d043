import FlowTemplates
import Foundation
import Testing

@Suite struct TemplateWriterTests {
    let files = [
        RenderedFile(path: "flowpkg.json", bytes: Array("{}".utf8)),
        RenderedFile(path: "Sources/App/Main.lua", bytes: Array("print(1)".utf8)),
    ]

    @Test func writesEveryFileAndNothingElse() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        let destination = scratch.url.appendingPathComponent("a/b/Project")
        try ProjectWriter.write(files, to: destination)
        let tree = TemplateScratch.tree(scratch.url)
        #expect(
            Set(tree.keys) == [
                "a", "a/b", "a/b/Project", "a/b/Project/flowpkg.json", "a/b/Project/Sources",
                "a/b/Project/Sources/App", "a/b/Project/Sources/App/Main.lua",
            ])
        #expect(tree["a/b/Project/Sources/App/Main.lua"] == Data("print(1)".utf8))
    }

    @Test func executableFilesKeepTheirExecuteBits() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        let destination = scratch.url.appendingPathComponent("Project")
        try ProjectWriter.write(
            files + [RenderedFile(path: "tools/run.sh", bytes: Array("#!/bin/sh\n".utf8), isExecutable: true)],
            to: destination)
        func permissions(_ path: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent(path).path)[
                .posixPermissions] as? Int ?? -1
        }
        #expect(try permissions("tools/run.sh") & 0o100 != 0)
        // Execute permission goes where read permission is, so the umask still decides.
        #expect(try permissions("tools/run.sh") & 0o111 == (try permissions("tools/run.sh") & 0o444) >> 2)
        #expect(try permissions("flowpkg.json") & 0o111 == 0)
    }

    @Test func anEmptyFolderIsFilled() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        let destination = scratch.url.appendingPathComponent("Project")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        let inode = try FileManager.default.attributesOfItem(atPath: destination.path)[.systemFileNumber] as? Int
        try ProjectWriter.write(files, to: destination)
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("flowpkg.json").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["Project"])
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: destination.path)) == ["flowpkg.json", "Sources"])
        // The same folder, filled in place: a shell whose working directory it is stays in it.
        #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.systemFileNumber] as? Int == inode)
    }

    @Test func aFailedWriteIntoAnEmptyFolderLeavesItEmpty() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        let destination = scratch.url.appendingPathComponent("Project")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        let broken = [RenderedFile(path: "ok.txt", bytes: [1]), RenderedFile(path: "ok.txt/inner", bytes: [2])]
        #expect {
            try ProjectWriter.write(broken, to: destination)
        } throws: { error in
            if case TemplateError.writeFailed = error as! TemplateError { return true }
            return false
        }
        #expect(TemplateScratch.tree(scratch.url).keys.sorted() == ["Project"])
    }

    @Test func aFolderWithSomethingInItIsLeftExactlyAsItWas() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        let destination = scratch.url.appendingPathComponent("Project")
        try FileManager.default.createDirectory(
            at: destination.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: destination.appendingPathComponent("flowpkg.json"))
        try Data().write(to: destination.appendingPathComponent(".hidden"))
        let before = TemplateScratch.tree(scratch.url)
        #expect(throws: TemplateError.destinationNotEmpty(path: destination.path)) {
            try ProjectWriter.write(files, to: destination)
        }
        #expect(TemplateScratch.tree(scratch.url) == before)
    }

    @Test func aFileInTheWayIsRefused() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        let destination = scratch.url.appendingPathComponent("Project")
        try Data("x".utf8).write(to: destination)
        let before = TemplateScratch.tree(scratch.url)
        #expect(throws: TemplateError.destinationNotAFolder(path: destination.path)) {
            try ProjectWriter.write(files, to: destination)
        }
        #expect(TemplateScratch.tree(scratch.url) == before)
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        // A file where a folder must go makes the write fail half-way through.
        let broken = [RenderedFile(path: "ok.txt", bytes: [1]), RenderedFile(path: "ok.txt/inner", bytes: [2])]
        let destination = scratch.url.appendingPathComponent("new/Project")
        #expect {
            try ProjectWriter.write(broken, to: destination)
        } throws: { error in
            if case TemplateError.writeFailed = error as! TemplateError { return true }
            return false
        }
        #expect(TemplateScratch.tree(scratch.url).isEmpty)
    }
}
