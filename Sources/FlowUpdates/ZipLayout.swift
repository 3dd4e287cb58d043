import FlowArchive
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where each entry of a zip file lies, from its central directory: what a delta download
/// needs to tell which byte ranges of a new package a device already holds.
///
/// A local file's end record and directory are found and read by FlowArchive's `ZipFile`, as
/// a package's are; a downloaded tail is parsed here, where each record's bytes are kept whole
/// (a delta rewrites their offsets). Only the plain zip layout the package writer produces is
/// understood (no zip64, no multi-disk); anything else gives nil and the client downloads the
/// whole package.
struct ZipLayout: Equatable {
    /// One entry's record in the central directory.
    struct Record: Equatable, Hashable {
        var name: [UInt8]
        var flags: UInt16
        var method: UInt16
        /// The MS-DOS time and date, as one number.
        var modified: UInt32
        var crc32: UInt32
        var compressedSize: UInt32
        var size: UInt32
        var offset: Int64
        /// The record's bytes in the central directory.
        var raw: [UInt8]

        /// The record with its local header offset set to `offset`.
        func moved(to offset: Int64) -> [UInt8] {
            var bytes = raw
            let value = UInt32(truncatingIfNeeded: offset)
            for index in 0..<4 { bytes[42 + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
            return bytes
        }
    }

    /// One entry's bytes in the file: its local header, data and data descriptor.
    struct Span: Equatable {
        var record: Record
        var start: Int64
        var length: Int64

        /// What makes two spans the same bytes in two packages written by the package writer:
        /// the same name, method, CRC-32, sizes and span length. The assembled file's SHA-256
        /// (signed in the index) is the final judge.
        var key: String {
            "\(record.flags):\(record.method):\(record.modified):\(record.crc32):\(record.compressedSize):\(record.size):\(length):"
                + record.name.map { String($0, radix: 16) }.joined(separator: ".")
        }
    }

    var directoryOffset: Int64
    var fileSize: Int64
    /// Every entry's span, in file order; together they cover `0..<directoryOffset`.
    var spans: [Span]

    static let endSignature: UInt32 = 0x0605_4b50
    static let recordSignature: UInt32 = 0x0201_4b50
    /// More central directory than this is not worth a delta (about 20,000 entries).
    static let maxDirectoryBytes: Int64 = 2 << 20

    /// Parses `tail`, the file's bytes from `directoryOffset` to its end (`fileSize`).
    static func parse(tail: [UInt8], directoryOffset: Int64, fileSize: Int64) -> ZipLayout? {
        guard tail.count >= 22, Int64(tail.count) == fileSize - directoryOffset, directoryOffset >= 0 else {
            return nil
        }
        // The end record: the last one whose comment reaches exactly to the end.
        var end: Int?
        var position = tail.count - 22
        while position >= 0 {
            if read32(tail, position) == endSignature, position + 22 + Int(read16(tail, position + 20)) == tail.count {
                end = position
                break
            }
            position -= 1
        }
        guard let end else { return nil }
        let count = Int(read16(tail, end + 10))
        let directorySize = Int64(read32(tail, end + 12))
        let offset = Int64(read32(tail, end + 16))
        guard offset == directoryOffset, directorySize == Int64(end), count < 0xFFFF else { return nil }
        var (records, cursor) = parseRecords(tail[0..<end], count: count)
        guard records.count == count, cursor == end else { return nil }
        records.sort { $0.offset < $1.offset }
        var spans: [Span] = []
        var expected: Int64 = 0
        for (index, record) in records.enumerated() {
            let next = index + 1 < records.count ? records[index + 1].offset : directoryOffset
            // Spans must tile the file before the directory: no gap, no overlap.
            guard record.offset == expected, next > record.offset else { return nil }
            spans.append(Span(record: record, start: record.offset, length: next - record.offset))
            expected = next
        }
        guard expected == directoryOffset else { return nil }
        return ZipLayout(directoryOffset: directoryOffset, fileSize: fileSize, spans: spans)
    }

    /// Up to `count` whole central directory records from the start of `bytes`, and where the
    /// first one not read starts; stops at a record that is cut off or not a record.
    static func parseRecords(_ bytes: ArraySlice<UInt8>, count: Int) -> (records: [Record], end: Int) {
        let tail = Array(bytes)
        var records: [Record] = []
        var cursor = 0
        while records.count < count, cursor + 46 <= tail.count, read32(tail, cursor) == recordSignature {
            let nameLength = Int(read16(tail, cursor + 28))
            let extraLength = Int(read16(tail, cursor + 30))
            let commentLength = Int(read16(tail, cursor + 32))
            let next = cursor + 46 + nameLength + extraLength + commentLength
            guard next <= tail.count else { break }
            let record = Record(
                name: Array(tail[(cursor + 46)..<(cursor + 46 + nameLength)]), flags: read16(tail, cursor + 8),
                method: read16(tail, cursor + 10), modified: read32(tail, cursor + 12),
                crc32: read32(tail, cursor + 16), compressedSize: read32(tail, cursor + 20),
                size: read32(tail, cursor + 24), offset: Int64(read32(tail, cursor + 42)),
                raw: Array(tail[cursor..<next]))
            guard record.compressedSize != .max, record.size != .max, record.offset != 0xFFFF_FFFF else { break }
            records.append(record)
            cursor = next
        }
        return (records, cursor)
    }

    /// The end record's facts, when `bytes` is exactly one without a comment.
    static func endRecord(_ bytes: [UInt8]) -> (count: Int, directorySize: Int64, directoryOffset: Int64)? {
        guard bytes.count == 22, read32(bytes, 0) == endSignature, read16(bytes, 20) == 0,
            read16(bytes, 8) == read16(bytes, 10), read16(bytes, 10) != 0xFFFF
        else { return nil }
        return (Int(read16(bytes, 10)), Int64(read32(bytes, 12)), Int64(read32(bytes, 16)))
    }

    /// The layout of the zip file at `url`, or nil.
    static func read(_ url: URL) -> ZipLayout? {
        guard let file = try? ZipFile(path: url.path), let end = try? file.endRecord() else { return nil }
        let size = Int64(file.size)
        let directoryOffset = Int64(end.directoryOffset)
        guard size - directoryOffset <= maxDirectoryBytes + 65_557,
            let tail = try? file.read(at: end.directoryOffset, count: Int(size - directoryOffset))
        else { return nil }
        return parse(tail: tail, directoryOffset: directoryOffset, fileSize: size)
    }

    static func readBytes(_ descriptor: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    // Little-endian fields, read as FlowArchive reads them.
    private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 { le16(bytes, at) }
    private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 { le32(bytes, at) }
}
