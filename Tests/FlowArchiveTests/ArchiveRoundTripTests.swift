import FlowTestSupport
import Foundation
import Testing
@testable import FlowArchive

@Suite struct ArchiveRoundTripTests {
    let directory: URL

    init() throws {
        directory = try Scratch("archive").url
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test func writtenEntriesReadBackByteForByte() throws {
        let path = directory.appendingPathComponent("round.zip").path
        let text = Array(String(repeating: "local x = 1\n", count: 5000).utf8)
        let media = randomBytes(300_000, seed: 7)
        let writer = try ArchiveWriter(path: path)
        try writer.addEntry(
            ArchiveEntryHeader(path: "manifest.json", size: 0, compression: .deflate, modificationTime: 1_000_000),
            bytes: Array("{}".utf8))
        // Streamed in uneven chunks, as the exporter does with large files.
        try writer.beginEntry(
            ArchiveEntryHeader(
                path: "modules/main.lua", size: Int64(text.count), compression: .deflate, modificationTime: 1_000_000))
        for start in stride(from: 0, to: text.count, by: 7_777) {
            try writer.write(Array(text[start..<min(start + 7_777, text.count)]))
        }
        try writer.addEntry(
            ArchiveEntryHeader(path: "resources/a.png", size: 0, compression: .store, modificationTime: 1_000_000),
            bytes: media)
        try writer.addEntry(
            ArchiveEntryHeader(
                path: "resources/empty.txt", size: 0, compression: .deflate, modificationTime: 1_000_000), bytes: [])
        try writer.close()

        let reader = try ArchiveReader(path: path)
        var seen: [String: [UInt8]] = [:]
        var order: [String] = []
        while let entry = try reader.nextEntry() {
            #expect(entry.kind == .regular)
            #expect(entry.modificationTime == 1_000_000)
            #expect(entry.permissions == 0o644)
            order.append(entry.path)
            seen[entry.path] = try reader.readData(limit: 1 << 20)
        }
        #expect(order == ["manifest.json", "modules/main.lua", "resources/a.png", "resources/empty.txt"])
        #expect(seen["manifest.json"] == Array("{}".utf8))
        #expect(seen["modules/main.lua"] == text)
        #expect(seen["resources/a.png"] == media)
        #expect(seen["resources/empty.txt"] == [])
    }

    @Test func storedEntriesAreNotDeflated() throws {
        let media = randomBytes(200_000, seed: 3)
        let text = Array(String(repeating: "abc ", count: 50_000).utf8)
        let stored = directory.appendingPathComponent("stored.zip").path
        let deflated = directory.appendingPathComponent("deflated.zip").path
        for (path, compression) in [(stored, EntryCompression.store), (deflated, .deflate)] {
            let writer = try ArchiveWriter(path: path)
            try writer.addEntry(
                ArchiveEntryHeader(path: "t.txt", size: 0, compression: compression, modificationTime: 0), bytes: text)
            try writer.addEntry(
                ArchiveEntryHeader(path: "m.png", size: 0, compression: .store, modificationTime: 0), bytes: media)
            try writer.close()
        }
        let storedSize = try FileManager.default.attributesOfItem(atPath: stored)[.size] as! Int
        let deflatedSize = try FileManager.default.attributesOfItem(atPath: deflated)[.size] as! Int
        #expect(storedSize > text.count + media.count)
        #expect(deflatedSize < media.count + text.count / 10)
    }

    @Test func sameEntriesGiveSameBytes() throws {
        var outputs: [Data] = []
        for index in 0..<2 {
            let path = directory.appendingPathComponent("same-\(index).zip").path
            let writer = try ArchiveWriter(path: path)
            try writer.addEntry(
                ArchiveEntryHeader(path: "a.lua", size: 0, compression: .deflate, modificationTime: 315_532_800),
                bytes: Array("return 1".utf8))
            try writer.close()
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(outputs[0] == outputs[1])
    }

    @Test func unwritablePathCarriesLibarchiveMessage() throws {
        let path = directory.appendingPathComponent("no/such/folder/out.zip").path
        do {
            _ = try ArchiveWriter(path: path)
            Issue.record("opening an archive in a missing folder succeeded")
        } catch let error as ArchiveError {
            #expect(error.path == path)
            #expect(error.message.contains("No such file or directory") || error.message.contains("Failed to open"))
        }
    }

    @Test func corruptArchiveIsASwiftError() throws {
        let path = directory.appendingPathComponent("junk.zip").path
        try Data(randomBytes(4096, seed: 11)).write(to: URL(fileURLWithPath: path))
        #expect(throws: ArchiveError.self) {
            let reader = try ArchiveReader(path: path)
            while let _ = try reader.nextEntry() { try reader.skipData() }
        }
    }

    @Test func truncatedArchiveIsASwiftError() throws {
        let path = directory.appendingPathComponent("whole.zip").path
        let writer = try ArchiveWriter(path: path)
        try writer.addEntry(
            ArchiveEntryHeader(path: "a.txt", size: 0, compression: .deflate, modificationTime: 0),
            bytes: randomBytes(50_000, seed: 5))
        try writer.close()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = directory.appendingPathComponent("truncated.zip").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: truncated))
        var thrown: ArchiveError?
        do {
            let reader = try ArchiveReader(path: truncated)
            while let _ = try reader.nextEntry() { _ = try reader.readData(limit: 1 << 20) }
        } catch let error as ArchiveError {
            thrown = error
        }
        #expect(thrown != nil)
        #expect(thrown?.path == truncated)
        #expect(thrown?.message.isEmpty == false)
    }

    @Test func readDataStopsAtItsLimit() throws {
        let path = directory.appendingPathComponent("big.zip").path
        let writer = try ArchiveWriter(path: path)
        try writer.addEntry(
            ArchiveEntryHeader(path: "big.txt", size: 0, compression: .deflate, modificationTime: 0),
            bytes: [UInt8](repeating: 65, count: 1_000_000))
        try writer.close()
        let reader = try ArchiveReader(path: path)
        _ = try reader.nextEntry()
        #expect(throws: ArchiveError.self) { _ = try reader.readData(limit: 1000) }
    }
}
