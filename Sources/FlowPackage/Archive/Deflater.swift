import CZlib

/// Raw deflate at the package's fixed level, and CRC-32, through zlib. One instance per
/// thread; it owns its `z_stream` and frees it in `deinit`.
final class Deflater {
    private var stream = z_stream()
    private var isOpen = false

    /// The deflate level every package uses; part of the format's reproducibility.
    static let level = ArchiveWriter.compressionLevel

    init() throws {
        let status = flowzlib_deflate_init_raw(&stream, Int32(Self.level))
        guard status == Z_OK else { throw ZlibError(operation: "start deflate", status: status, message: nil) }
        isOpen = true
    }

    deinit {
        if isOpen { deflateEnd(&stream) }
    }

    /// All of `input`, deflated in one go (a fresh stream each time, so the result depends
    /// only on the bytes).
    func deflate(_ input: UnsafeRawBufferPointer) throws -> [UInt8] {
        try reset()
        return try feed(input, finish: true)
    }

    /// Starts a new stream for `feed`.
    func reset() throws {
        let status = deflateReset(&stream)
        guard status == Z_OK else { throw ZlibError(operation: "reset deflate", status: status, message: nil) }
    }

    /// Deflates `input` and returns what zlib produced so far; `finish` ends the stream.
    func feed(_ input: UnsafeRawBufferPointer, finish: Bool) throws -> [UInt8] {
        var output: [UInt8] = []
        let chunk = 256 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        while true {
            stream.next_out = buffer
            stream.avail_out = UInt32(chunk)
            let status = CZlib.deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
            if status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR {
                throw ZlibError(operation: "deflate", status: status, message: stream.msg.map { String(cString: $0) })
            }
            let produced = chunk - Int(stream.avail_out)
            if produced > 0 { output.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: produced)) }
            if finish ? status == Z_STREAM_END : (stream.avail_in == 0 && stream.avail_out != 0) { break }
        }
        stream.next_in = nil
        return output
    }

    /// The CRC-32 zip records, continued from `crc` over `bytes`.
    static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        var value = UInt(crc)
        var offset = 0
        // zlib takes a 32-bit length; feed huge buffers in slices.
        while offset < bytes.count {
            let count = min(bytes.count - offset, 1 << 30)
            value = CZlib.crc32(value, base.assumingMemoryBound(to: UInt8.self) + offset, UInt32(count))
            offset += count
        }
        return UInt32(value)
    }
}

/// A zlib failure, with zlib's own message when it gave one.
struct ZlibError: Error, CustomStringConvertible {
    var operation: String
    var status: Int32
    var message: String?
    var description: String { "zlib cannot \(operation): \(message ?? "status \(status)")" }
}
