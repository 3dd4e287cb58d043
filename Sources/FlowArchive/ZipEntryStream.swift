import CZlib

/// What the entry readers (`checkedData`, `checkedContents`, `boundedData`) read from: one
/// entry's bytes, a chunk at a time, 0 at its end.
package protocol EntryByteSource: AnyObject {
    /// The archive's path, for messages.
    var path: String { get }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ArchiveReader: EntryByteSource {}

/// One entry of a package, read straight from the zip with `pread` and inflated with zlib:
/// how the loader, `verify` and every other reader of a package's entries reach their bytes.
///
/// libarchive is not involved (it stays the writer): a process that only runs a package then
/// never loads libarchive and the libraries it pulls in (libxml2, ICU, nettle, zstd, lzma,
/// bz2, lz4, acl), which cost more at start than everything else flowpkg loads (see
/// Benchmarks/README.md, start-up). A package holds only stored (0) and deflated (8) entries,
/// as flowpkg writes them; any other method, and encrypted entries, are refused.
///
/// Bounds: the stream reads exactly the entry's packed bytes as the central directory declares
/// them, after `ZipCentralDirectory.localHeaderProblem` found the local header agreeing with the
/// directory and the data ending before the next entry; it never reads outside that window.
/// How much it inflates is bounded by its caller, which asks for at most one byte more than the
/// manifest declares.
package final class ZipEntryStream: EntryByteSource {
    package let path: String
    private let entry: String
    private let file: ZipFile
    /// The next packed byte to read, and how many are left.
    private var position: UInt64
    private var remaining: UInt64
    private let deflated: Bool
    /// zlib's state, at a fixed address (zlib checks its state still points at the stream).
    private let stream: UnsafeMutablePointer<z_stream>?
    private let input: UnsafeMutableRawBufferPointer
    private var ended = false

    /// A stream over the packed bytes `[start, start + count)` of `file`, stored or deflated
    /// as `method` says; `entry` names it in messages.
    package init(
        file: ZipFile, path: String, entry: String, start: UInt64, count: UInt64, method: UInt16, flags: UInt16
    )
        throws(ArchiveError)
    {
        self.file = file
        self.path = path
        self.entry = entry
        self.position = start
        self.remaining = count
        if flags & 0x01 != 0 {
            throw ArchiveError(
                path: path, operation: "read entry \(entry)", message: "it is encrypted; package entries never are")
        }
        switch method {
        case 0:
            deflated = false
            stream = nil
            input = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        case 8:
            deflated = true
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard flowzlib_inflate_init_raw(stream) == Z_OK else {
                stream.deinitialize(count: 1)
                stream.deallocate()
                throw ArchiveError(
                    path: path, operation: "read entry \(entry)", message: "zlib cannot start (out of memory)")
            }
            self.stream = stream
            // Never more than the packed bytes: a module of a few hundred bytes needs no 64 KiB.
            input = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(min(count, 64 * 1024)) + 1, alignment: 16)
        default:
            throw ArchiveError(
                path: path, operation: "read entry \(entry)",
                message: "it uses compression method \(method); packages use only stored (0) and deflated (8) entries")
        }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
            input.deallocate()
        }
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0, !ended else { return 0 }
        guard let stream else {
            // Stored: the packed bytes are the entry's bytes.
            let count = Int(min(UInt64(buffer.count), remaining))
            if count == 0 { return 0 }
            let got = file.read(into: UnsafeMutableRawBufferPointer(start: base, count: count), at: position)
            if got <= 0 { throw failure(got < 0 ? "the file cannot be read" : "the file ends inside the entry") }
            position += UInt64(got)
            remaining -= UInt64(got)
            return got
        }
        // zlib's counts are 32-bit; a read asks for at most 1 GiB at a time.
        let room = min(buffer.count, 1 << 30)
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(room)
        while true {
            if stream.pointee.avail_in == 0, remaining > 0 {
                let count = Int(min(UInt64(input.count), remaining))
                let got = file.read(into: UnsafeMutableRawBufferPointer(rebasing: input[0..<count]), at: position)
                if got <= 0 { throw failure(got < 0 ? "the file cannot be read" : "the file ends inside the entry") }
                position += UInt64(got)
                remaining -= UInt64(got)
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = uInt(got)
            }
            // With every packed byte handed over, Z_FINISH: a stream that then completes in the
            // room given needs no 32 KiB sliding window (zlib allocates one otherwise); one that
            // does not goes on as with Z_NO_FLUSH.
            let status = inflate(stream, remaining == 0 ? Z_FINISH : Z_NO_FLUSH)
            let produced = room - Int(stream.pointee.avail_out)
            switch status {
            case Z_STREAM_END:
                ended = true
                return produced
            case Z_OK, Z_BUF_ERROR:
                if produced > 0 { return produced }
                if stream.pointee.avail_in == 0, remaining == 0 {
                    throw failure("its deflated data ends before the deflate stream does")
                }
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
                throw failure("its deflated data is damaged (zlib: \(message))")
            }
        }
    }

    private func failure(_ message: String) -> ArchiveError {
        ArchiveError(path: path, operation: "read entry \(entry)", message: message)
    }
}
