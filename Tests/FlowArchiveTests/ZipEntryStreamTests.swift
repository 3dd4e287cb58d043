import FlowTestSupport
import Foundation
import Testing

@testable import FlowArchive

/// The zip container's own entry stream (zlib), which every reader of entry bytes goes
/// through, against libarchive's reader of the same entries.
@Suite struct ZipEntryStreamTests {
    let folder: URL

    init() throws {
        folder = try Scratch("zip").url
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A zip as the package writer lays one out: a small stored first entry, deflated text in
    /// folders, stored media of `mediaSize` bytes (random, so deflate would not shrink it).
    func writeZip(_ name: String, mediaSize: Int = 20_000) throws -> URL {
        let url = folder.appendingPathComponent(name)
        var state: UInt64 = 11
        let media = (0..<mediaSize).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let writer = try ArchiveWriter(path: url.path)
        let entries: [(String, EntryCompression, [UInt8])] = [
            ("manifest.json", .store, Array(#"{"formatVersion": 2}"#.utf8)),
            ("modules/main.lua", .deflate, Array(String(repeating: "print('main')\n", count: 400).utf8)),
            ("modules/ui/view.lua", .deflate, Array(String(repeating: "local view = {}\n", count: 900).utf8)),
            ("resources/notes.txt", .deflate, Array(String(repeating: "a note ", count: 300).utf8)),
            ("resources/logo.png", .store, media),
        ]
        for (path, compression, bytes) in entries {
            try writer.addEntry(
                ArchiveEntryHeader(path: path, size: 0, compression: compression, modificationTime: 0), bytes: bytes)
        }
        try writer.close()
        return url
    }

    func directory(_ url: URL) throws -> ZipCentralDirectory {
        let file = try ZipFile(path: url.path)
        return try ZipCentralDirectory(file: file, end: try file.endRecord())
    }

    /// Every entry of a written zip (the first stored, modules and text deflated, media stored)
    /// reads through the stream as libarchive reads it (FlowPackageTests' fuzz probes make the
    /// same comparison on every package of the corpus).
    @Test func everyWrittenEntryReadsAsLibarchiveReadsIt() throws {
        let url = try writeZip("all.zip", mediaSize: 300_000)
        let directory = try directory(url)
        let methods = Set(directory.entries.map(\.method))
        #expect(methods == [0, 8])
        let reader = try ArchiveReader(path: url.path)
        var compared = 0
        while let info = try reader.nextEntry() {
            let theirs = try reader.readData(limit: 1 << 24)
            let index = try #require(
                directory.entries.indices.first { directory.name(of: directory.entries[$0]) == info.path })
            let stream = try directory.stream(forEntry: index, path: url.path)
            var ours: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
                if count == 0 { break }
                ours += chunk[0..<count]
            }
            #expect(ours == theirs, "\(info.path)")
            compared += 1
        }
        #expect(compared == directory.entries.count)
    }

    /// Damaged deflate data, an unknown method and the encryption flag are refused in words.
    @Test func damagedOrForeignEntriesAreRefusedInWords() throws {
        let url = try writeZip("damaged-source.zip")
        let original = try Data(contentsOf: url)
        let directory = try directory(url)
        let deflated = try #require(directory.entries.indices.first { directory.entries[$0].method == 8 })
        let entry = directory.entries[deflated]
        let nameCount = Int(directory.entries[deflated].nameCount)

        // The first bytes of the deflate stream: block type 3 does not exist.
        var damaged = original
        let dataStart = Int(entry.localHeaderOffset) + 30 + nameCount + Int(original[Int(entry.localHeaderOffset) + 28])
        damaged[dataStart] = 0xFF
        let damagedURL = folder.appendingPathComponent("damaged.zip")
        try damaged.write(to: damagedURL)
        let stream = try self.directory(damagedURL).stream(forEntry: deflated, path: damagedURL.path)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        #expect {
            while try buffer.withUnsafeMutableBytes({ try stream.read(into: $0) }) > 0 {}
        } throws: { error in
            "\(error)".contains("deflated data is damaged")
        }

        let file = try ZipFile(path: url.path)
        #expect {
            _ = try ZipEntryStream(file: file, path: url.path, entry: "x", start: 0, count: 10, method: 12, flags: 0)
        } throws: { error in
            "\(error)".contains("compression method 12")
        }
        #expect {
            _ = try ZipEntryStream(file: file, path: url.path, entry: "x", start: 0, count: 10, method: 0, flags: 1)
        } throws: { error in
            "\(error)".contains("encrypted")
        }
    }

    /// A deflate stream cut short (the directory declares fewer packed bytes than it needs) is
    /// refused, not read past its window.
    @Test func aDeflateStreamCutShortIsRefused() throws {
        let url = try writeZip("cut.zip", mediaSize: 300_000)
        let directory = try directory(url)
        let deflated = try #require(
            directory.entries.indices.first {
                directory.entries[$0].method == 8 && directory.entries[$0].compressedSize > 16
            })
        let entry = directory.entries[deflated]
        guard case .data(let start) = directory.checkLocalHeader(deflated) else {
            Issue.record("the written entry's local header is refused")
            return
        }
        let stream = try ZipEntryStream(
            file: directory.file, path: url.path, entry: "cut", start: start, count: entry.compressedSize / 2,
            method: 8,
            flags: entry.flags)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        #expect {
            while try buffer.withUnsafeMutableBytes({ try stream.read(into: $0) }) > 0 {}
        } throws: { error in
            "\(error)".contains("ends before the deflate stream does")
        }
    }
}
