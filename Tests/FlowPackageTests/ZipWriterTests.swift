import Foundation
import Testing
@testable import FlowPackage

/// The zip layout `ZipWriter` produces, read back by libarchive, Python and Info-ZIP.
@Suite struct ZipWriterTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    @Test func streamedAndPreparedEntriesReadBack() throws {
        let path = scratch.path("mixed.zip").path
        let writer = try ZipWriter(path: path, timestamp: 1_700_000_000)
        let text = Array(String(repeating: "local answer = 42\n", count: 100_000).utf8)
        let deflated = try text.withUnsafeBytes { try Deflater().deflate($0) }
        try deflated.withUnsafeBytes { try writer.addEntry(name: "a.txt", method: .deflate, crc: text.withUnsafeBytes { Deflater.crc32(0, $0) }, size: Int64(text.count), data: $0) }
        try writer.beginEntry(name: "b/streamed.txt", method: .deflate)
        for start in stride(from: 0, to: text.count, by: 65_537) {
            try Array(text[start..<min(start + 65_537, text.count)]).withUnsafeBytes { try writer.write($0) }
        }
        try writer.finishEntry()
        let media = noise(300_000, seed: 1)
        try writer.beginEntry(name: "c/stored.png", method: .store)
        try media.withUnsafeBytes { try writer.write($0) }
        try writer.beginEntry(name: "d/empty.txt", method: .deflate)
        try writer.close()

        let reader = try ArchiveReader(path: path)
        var seen: [String: [UInt8]] = [:]
        while let entry = try reader.nextEntry() {
            #expect(entry.kind == .regular && entry.permissions == 0o644 && entry.modificationTime == 1_700_000_000)
            seen[entry.path] = try reader.readData(limit: 1 << 24)
        }
        // Compared as one Bool: a failure must not print megabytes of bytes.
        let same = seen == ["a.txt": text, "b/streamed.txt": text, "c/stored.png": media, "d/empty.txt": []]
        #expect(same, "\(seen.mapValues(\.count))")
        #expect(try python("import zipfile,sys; print(zipfile.ZipFile(sys.argv[1]).testzip())", [path]) == "None\n")
        #expect(try runTool("unzip", ["-tq", path]).status == 0)
    }

    @Test func manyEntriesGetZip64EndRecords() throws {
        // 65,536 entries (the package limit) do not fit the classic end record's 16-bit count.
        let path = scratch.path("many.zip").path
        let writer = try ZipWriter(path: path, timestamp: 315_532_800)
        for index in 0..<65_536 {
            try writer.addEntry(name: "r/\(index)", method: .store, crc: 0, size: 0, data: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        try writer.close()
        #expect(try ZipFile(path: path).endRecord().entryCount == 65_536)
        #expect(try python("import zipfile,sys; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))", [path]) == "65536\n")
        let bsdtar = try runTool("bsdtar", ["-tf", path])
        #expect(bsdtar.status == 0 && bsdtar.output.split(separator: "\n").count == 65_536)
    }

    @Test func largeTextResourceIsStreamedThroughDeflate() throws {
        let size = Int(InputHashing.retainedFileLimit) + 777_777
        let text = Array(String(repeating: "The answer is 42. ", count: size / 18 + 1).utf8.prefix(size))
        let file = try scratch.file("big.txt", text)
        let input = PackageInput(identifier: try PackageIdentifier("com.example.big"), name: "Big", version: "1", startModule: nil,
                                 modules: [], resources: [.init(key: try ResourceKey(name: "big", type: "txt"), file: file)])
        try PackageWriter.write(input, to: scratch.path("big.luapkg"))
        let reader = try PackageReader(contentsOf: scratch.path("big.luapkg"))
        let same = try reader.resourceData(ResourceKey(name: "big", type: "txt")) == text
        #expect(same)
        let packageSize = try FileManager.default.attributesOfItem(atPath: scratch.path("big.luapkg").path)[.size] as! Int
        #expect(packageSize < size / 20)
    }
}
