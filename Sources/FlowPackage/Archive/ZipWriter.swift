#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a zip archive's structure itself, so entries can be deflated on other threads and
/// only appended here (libarchive's writer deflates inside `archive_write_data`, on the
/// calling thread). Every header field is fixed by the entry's name, bytes and the one
/// timestamp, in UTC: the same entries give the same bytes on any machine.
///
/// Each entry gets a local header without a data descriptor (sizes and CRC are in it,
/// patched after a streamed entry), an `UT` extra field with the UTC time and a `ux` one
/// with owner and group 0; the central directory records Unix mode 0644; Zip64 records are
/// added only when offsets or the entry count need them.
final class ZipWriter {
    private struct Record {
        var name: [UInt8]
        var method: UInt16
        var crc: UInt32
        var compressedSize: UInt64
        var size: UInt64
        var offset: UInt64
    }

    let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Bytes already handed to the file; the next byte's offset is `flushed + buffer.count`.
    private var flushed: UInt64 = 0
    private var records: [Record] = []
    private let dosTime: UInt16
    private let dosDate: UInt16
    private let localExtra: [UInt8]
    private let centralExtra: [UInt8]
    private var streaming: (index: Int, crc: UInt32, size: UInt64, compressed: UInt64, deflater: Deflater?)?

    init(path: String, timestamp: Int64) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { throw ZipWriterError(String(cString: strerror(errno))) }
        (dosDate, dosTime) = ZipTimestamps.dosDateTime(utc: timestamp)
        var ut: [UInt8] = []
        if let seconds = Int32(exactly: timestamp) {
            ut = [0x55, 0x54, 5, 0, 1] + le(UInt32(bitPattern: seconds))
        }
        localExtra = ut + [0x75, 0x78, 11, 0, 1, 4] + le(UInt32(0)) + [4] + le(UInt32(0))
        centralExtra = ut
        buffer.reserveCapacity(1 << 20)
    }

    deinit { _ = systemClose(descriptor) }

    /// Appends an entry whose bytes are final: already deflated (`method` 8) or stored (0).
    func addEntry(name: String, method: EntryCompression, crc: UInt32, size: Int64, data: UnsafeRawBufferPointer) throws {
        try finishEntry()
        let record = Record(name: Array(name.utf8), method: method == .deflate ? 8 : 0, crc: crc,
                            compressedSize: UInt64(data.count), size: UInt64(size), offset: offset)
        try append(localHeader(record))
        try append(data)
        records.append(record)
    }

    /// Starts an entry whose bytes follow through `write(_:)`; `finishEntry()` patches its header.
    func beginEntry(name: String, method: EntryCompression) throws {
        try finishEntry()
        let record = Record(name: Array(name.utf8), method: method == .deflate ? 8 : 0, crc: 0, compressedSize: 0, size: 0, offset: offset)
        try append(localHeader(record))
        records.append(record)
        let deflater = method == .deflate ? try Deflater() : nil
        streaming = (records.count - 1, 0, 0, 0, deflater)
    }

    /// Appends bytes to the entry begun last, deflating them when it is deflated.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var current = streaming else { throw ZipWriterError("no entry is open") }
        current.crc = Deflater.crc32(current.crc, bytes)
        current.size += UInt64(bytes.count)
        if let deflater = current.deflater {
            let produced = try deflater.feed(bytes, finish: false)
            try append(produced)
            current.compressed += UInt64(produced.count)
        } else {
            try append(bytes)
            current.compressed += UInt64(bytes.count)
        }
        streaming = current
    }

    /// Ends the streamed entry and writes its CRC and sizes into its local header.
    func finishEntry() throws {
        guard var current = streaming else { return }
        streaming = nil
        if let deflater = current.deflater {
            let produced = try deflater.feed(UnsafeRawBufferPointer(start: nil, count: 0), finish: true)
            try append(produced)
            current.compressed += UInt64(produced.count)
        }
        records[current.index].crc = current.crc
        records[current.index].size = current.size
        records[current.index].compressedSize = current.compressed
        let record = records[current.index]
        guard record.size < 0xFFFF_FFFF, record.compressedSize < 0xFFFF_FFFF else { throw ZipWriterError("an entry of 4 GiB or more") }
        try flush()
        let patch = le(record.crc) + le(UInt32(record.compressedSize)) + le(UInt32(record.size))
        try pwriteAll(patch, at: record.offset + 14)
    }

    /// Writes the central directory and end records, and flushes the file to disk.
    func close() throws {
        try finishEntry()
        let directoryOffset = offset
        for record in records {
            let needsZip64 = record.offset >= 0xFFFF_FFFF
            var extra = centralExtra
            if needsZip64 { extra += [1, 0, 8, 0] + le64(record.offset) }
            var header: [UInt8] = le(UInt32(0x0201_4B50)) + le16(0x031E) + le16(needsZip64 ? 45 : 20) + le16(0x0800)
            header += le16(record.method) + le16(dosTime) + le16(dosDate) + le(record.crc)
            header += le(UInt32(record.compressedSize)) + le(UInt32(record.size))
            header += le16(UInt16(record.name.count)) + le16(UInt16(extra.count)) + le16(0) + le16(0) + le16(0)
            header += le(UInt32(0o100644) << 16) + le(UInt32(needsZip64 ? 0xFFFF_FFFF : record.offset))
            try append(header + record.name + extra)
        }
        let directorySize = offset - directoryOffset
        let count = UInt64(records.count)
        if count >= 0xFFFF || directoryOffset >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF {
            let zip64EndOffset = offset
            try append(le(UInt32(0x0606_4B50)) + le64(44) + le16(45) + le16(45) + le(UInt32(0)) + le(UInt32(0))
                       + le64(count) + le64(count) + le64(directorySize) + le64(directoryOffset))
            try append(le(UInt32(0x0706_4B50)) + le(UInt32(0)) + le64(zip64EndOffset) + le(UInt32(1)))
        }
        let shortCount = le16(UInt16(min(count, 0xFFFF)))
        try append(le(UInt32(0x0605_4B50)) + le16(0) + le16(0) + shortCount + shortCount
                   + le(UInt32(min(directorySize, 0xFFFF_FFFF))) + le(UInt32(min(directoryOffset, 0xFFFF_FFFF))) + le16(0))
        try flush()
        if fsync(descriptor) != 0 { throw ZipWriterError(String(cString: strerror(errno))) }
    }

    private var offset: UInt64 { flushed + UInt64(buffer.count) }

    private func localHeader(_ record: Record) -> [UInt8] {
        var header: [UInt8] = le(UInt32(0x0403_4B50)) + le16(20) + le16(0x0800) + le16(record.method)
        header += le16(dosTime) + le16(dosDate) + le(record.crc) + le(UInt32(record.compressedSize)) + le(UInt32(record.size))
        header += le16(UInt16(record.name.count)) + le16(UInt16(localExtra.count))
        return header + record.name + localExtra
    }

    private func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    private func append(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > 1 << 20 { try flush() }
        if bytes.count >= 1 << 20 {
            try writeAll(bytes)
            flushed += UInt64(bytes.count)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try writeAll($0) }
        flushed += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw ZipWriterError(String(cString: strerror(errno)))
            }
            done += count
        }
    }

    private func pwriteAll(_ bytes: [UInt8], at position: UInt64) throws {
        let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(position)) }
        if count != bytes.count { throw ZipWriterError(String(cString: strerror(errno))) }
    }
}

/// Why writing the archive failed (the system's or zlib's words).
struct ZipWriterError: Error, CustomStringConvertible {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}

private func le(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
private func le64(_ value: UInt64) -> [UInt8] { le(UInt32(value & 0xFFFF_FFFF)) + le(UInt32(value >> 32)) }

#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif
