import FlowTestSupport
import Foundation
import Testing

@testable import FlowArchive

/// A small file (an app's package) is read whole when it is opened and served from those bytes;
/// a larger one is read from the file at each read. Either way a read past the end is refused.
@Suite struct ZipFileTests {
    func file(_ bytes: [UInt8]) throws -> URL {
        let url = try Scratch("zipfile").path("archive.zip")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func aSmallFileIsReadWholeAtOpenAndALargeOneAtEachRead() throws {
        for size in [100, Int(ZipFile.wholeFileLimit), Int(ZipFile.wholeFileLimit) + 1] {
            let original = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let url = try file(original)
            defer { try? FileManager.default.removeItem(at: url) }
            let zip = try ZipFile(path: url.path)
            #expect(zip.size == UInt64(size))
            try Data(repeating: 0, count: size).write(to: url)
            let expected = size <= Int(ZipFile.wholeFileLimit) ? original : [UInt8](repeating: 0, count: size)
            #expect(try zip.read(at: 0, count: size) == expected, "size \(size)")
            #expect(try zip.read(at: UInt64(size - 10), count: 10) == Array(expected.suffix(10)))
            var buffer = [UInt8](repeating: 0xFF, count: 64)
            let got = buffer.withUnsafeMutableBytes { zip.read(into: $0, at: UInt64(size - 20)) }
            #expect(got == 20)
            #expect(Array(buffer.prefix(20)) == Array(expected.suffix(20)))
            #expect(buffer.withUnsafeMutableBytes { zip.read(into: $0, at: UInt64(size)) } == 0)
            #expect(throws: ZipProbeError.self) { try zip.read(at: UInt64(size - 5), count: 6) }
        }
    }
}
