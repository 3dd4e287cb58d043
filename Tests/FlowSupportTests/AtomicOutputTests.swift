import FlowTestSupport
import Foundation
import Testing

@testable import FlowSupport

/// FlowSupport's `AtomicOutput`, the one way flowpkg replaces a file: whole or not at all, the
/// target's mode kept, a symbolic link written through (or refused), and what a killed writer
/// left removed by the next write.
@Suite struct AtomicOutputTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch("atomic") }

    func mode(_ name: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: scratch.path(name).path)[.posixPermissions] as? Int)
    }

    func isLink(_ name: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: scratch.path(name).path)) != nil
    }

    @Test func aNewFileIsWrittenWholeWithTheUmasksMode() throws {
        try AtomicOutput.write(Array("one\n".utf8), to: scratch.path("a/b/new.txt").path, creatingFolders: true)
        #expect(try scratch.text("a/b/new.txt") == "one\n")
        let mask = umask(0)
        umask(mask)
        #expect(try mode("a/b/new.txt") == 0o666 & ~Int(mask))
        #expect(try scratch.entries("a/b") == ["new.txt"])
    }

    @Test func anExistingFilesModeIsKept() throws {
        for wanted in [0o600, 0o640, 0o755, 0o444] {
            let file = try scratch.file("kept-\(wanted).json", "{}")
            try FileManager.default.setAttributes([.posixPermissions: wanted], ofItemAtPath: file.path)
            try AtomicOutput.write(Array("{\"a\": 1}".utf8), to: file.path)
            #expect(try mode("kept-\(wanted).json") == wanted)
            #expect(try scratch.text("kept-\(wanted).json") == "{\"a\": 1}")
        }
    }

    @Test func aSymbolicLinkIsWrittenThroughAndStaysALink() throws {
        let real = try scratch.file("real/flowpkg.json", "old")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: real.path)
        try scratch.folder("project")
        // A chain: project/flowpkg.json -> ../middle.json -> real/flowpkg.json (relative links).
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("middle.json").path, withDestinationPath: "real/flowpkg.json")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("project/flowpkg.json").path, withDestinationPath: "../middle.json")

        try AtomicOutput.write(Array("new".utf8), to: scratch.path("project/flowpkg.json").path)

        #expect(isLink("project/flowpkg.json") && isLink("middle.json"))
        #expect(try scratch.text("real/flowpkg.json") == "new")
        #expect(try mode("real/flowpkg.json") == 0o600)
        #expect(try scratch.entries("project") == ["flowpkg.json"])
        #expect(try scratch.entries("real") == ["flowpkg.json"])
    }

    @Test func aDanglingLinkGetsTheFileItNames() throws {
        try scratch.folder("real")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("out.txt").path, withDestinationPath: "real/out.txt")
        try AtomicOutput.write(Array("made".utf8), to: scratch.path("out.txt").path)
        #expect(isLink("out.txt"))
        #expect(try scratch.text("real/out.txt") == "made")
    }

    @Test func aLinkIsRefusedWhenAskedAndNothingIsWritten() throws {
        try scratch.file("outside.lua", "mine")
        try scratch.folder("vendor")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("vendor/x.lua").path, withDestinationPath: "../outside.lua")
        #expect {
            try AtomicOutput.write(Array("theirs".utf8), to: scratch.path("vendor/x.lua").path, links: .refuse)
        } throws: { error in
            let failure = error as? AtomicOutput.Failure
            return failure?.path == scratch.path("vendor/x.lua").path
                && failure?.reason.contains("symbolic link") == true
                && failure?.reason.contains("remove the link") == true
        }
        #expect(try scratch.text("outside.lua") == "mine")
        #expect(try scratch.entries("vendor") == ["x.lua"])
    }

    @Test func aLoopOfLinksIsRefusedWithAMessage() throws {
        try FileManager.default.createSymbolicLink(atPath: scratch.path("a").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("b").path, withDestinationPath: "a")
        #expect {
            try AtomicOutput.write(Array("x".utf8), to: scratch.path("a").path)
        } throws: { error in
            (error as? AtomicOutput.Failure)?.reason.contains("chain of symbolic links") == true
        }
        #expect(try scratch.entries() == ["a", "b"])
    }

    @Test func aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws {
        try scratch.file("keep.txt", "old")
        // A folder where the output goes: rename(2) refuses to put a file there.
        try scratch.folder("folder.txt/inside")
        #expect(throws: AtomicOutput.Failure.self) {
            try AtomicOutput.write(Array("new".utf8), to: scratch.path("folder.txt").path)
        }
        #expect(try scratch.entries() == ["folder.txt", "keep.txt"])
        let output = try AtomicOutput(beside: scratch.path("keep.txt"))
        try output.fill(with: Array("unfinished".utf8))
        output.removeIfLeft()
        #expect(try scratch.entries() == ["folder.txt", "keep.txt"])
        #expect(try scratch.text("keep.txt") == "old")
    }

    @Test func renamingOverAFolderThatFilledUpSaysWhy() throws {
        try scratch.file("staged/a.txt", "a")
        try scratch.file("destination/b.txt", "b")
        #expect {
            try AtomicOutput.rename(scratch.path("staged").path, over: scratch.path("destination").path)
        } throws: { error in
            let code = (error as? AtomicOutput.Failure)?.code
            return code == ENOTEMPTY || code == EEXIST
        }
        try AtomicOutput.rename(scratch.path("staged").path, over: scratch.path("fresh").path)
        #expect(try scratch.entries() == ["destination", "fresh"])
    }

    /// 43 #14: the temporary file of a writer killed with SIGKILL is recognised by its name and
    /// removed by the next write beside the same output, and only once its writer is gone.
    @Test func aSIGKILLedWritersTemporaryFileIsRemovedByTheNextWrite() throws {
        try scratch.file("flowpkg.json", "{}")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sleep")
        writer.arguments = ["600"]
        try writer.run()
        let left = ".flowpkg.json.\(writer.processIdentifier).4242.tmp"
        try scratch.file(left, "{\"half")
        // A foreign file of a similar name is never touched.
        try scratch.file(".flowpkg.json.swp", "editor")

        try AtomicOutput.write(Array("{\"a\": 1}".utf8), to: scratch.path("flowpkg.json").path)
        #expect(try scratch.entries().contains(left), "removed while its writer was alive")

        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        #expect(writer.terminationReason == .uncaughtSignal)
        try AtomicOutput.write(Array("{\"a\": 2}".utf8), to: scratch.path("flowpkg.json").path)
        #expect(try scratch.entries() == [".flowpkg.json.swp", "flowpkg.json"])
        #expect(try scratch.text("flowpkg.json") == "{\"a\": 2}")
    }
}
