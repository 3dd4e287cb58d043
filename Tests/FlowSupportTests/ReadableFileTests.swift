import FlowSupport
import FlowTestSupport
import Foundation
import Testing

/// `ReadableFile.readToEnd`: a regular file in one read of its size, whatever its size and
/// wherever the last read ended; a file whose size `fstat` does not tell (a `/proc` file, a
/// pipe) in chunks; a folder as the system's reason.
@Suite struct ReadableFileTests {
    @Test func regularFilesAreReadWholeFromWhereTheLastReadEnded() throws {
        let scratch = try Scratch("readable-whole")
        defer { scratch.remove() }
        for size in [0, 1, 4_095, 65_536, 65_537, 300_001] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let url = try scratch.file("f\(size)", bytes)
            #expect(try ReadableFile(path: url.path).readToEnd() == bytes, "\(size)")
            let file = try ReadableFile(path: url.path)
            let head = try file.read(upTo: 10)
            #expect(try head + file.readToEnd() == bytes, "\(size) after a read")
            try file.seek(to: 0)
            #expect(try file.readToEnd() == bytes, "\(size) after a seek")
            #expect(try file.readToEnd().isEmpty)
        }
    }

    @Test func filesWithoutASizeAreReadInChunks() throws {
        // /proc files say 0 bytes and hold more.
        let cmdline = try ReadableFile(path: "/proc/self/cmdline").readToEnd()
        #expect(cmdline == Array(try Data(contentsOf: URL(fileURLWithPath: "/proc/self/cmdline"))))
        #expect(!cmdline.isEmpty)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let writer = Thread {
            _ = writeAll(writeEnd, bytes)
            close(writeEnd)
        }
        writer.start()
        #expect(try ReadableFile(path: "/proc/self/fd/\(readEnd)").readToEnd() == bytes)
        close(readEnd)
    }

    @Test func aFolderGivesTheSystemsReason() throws {
        let scratch = try Scratch("readable-folder")
        defer { scratch.remove() }
        let folder = try scratch.folder("inside")
        do {
            _ = try ReadableFile(path: folder.path).readToEnd()
            Issue.record("read a folder")
        } catch {
            #expect(error.description == "cannot read \(folder.path): Is a directory")
        }
    }
}
