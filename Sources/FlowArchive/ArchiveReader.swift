#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the archive says of one entry, before any of its bytes are read.
public struct ArchiveEntryInfo: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symlink, other
    }

    /// The entry's name as stored (UTF-8 where the archive says so).
    public var path: String
    public var kind: Kind
    /// The uncompressed size the archive declares, when it declares one.
    public var size: Int64?
    public var permissions: UInt32
    public var modificationTime: Int64
}

/// Reads a zip archive through libarchive, entry by entry.
///
/// The seekable zip reader is used, so entry facts come from the central directory and an
/// entry's bytes can be skipped without being inflated.
public final class ArchiveReader {
    private let api: LibArchive
    private let handle: OpaquePointer
    private let status: ArchiveStatus
    private var current: String?
    public let path: String
    /// What feeds libarchive when the reader streams one entry from a byte range.
    private var range: ZipByteRange?

    /// Opens `path`. A missing, unreadable or non-zip file throws with libarchive's message.
    public convenience init(path: String) throws {
        try self.init(path: path, checksCRC: true)
    }

    /// Opens `path`, as `init(path:)` does; `checksCRC: false` skips libarchive's CRC-32 of
    /// each entry's bytes: for callers that check every byte they read against a SHA-256
    /// anyway, to which the CRC adds nothing but a second pass over the data.
    public init(path: String, checksCRC: Bool) throws {
        let api = try LibArchive.load(for: path)
        self.api = api
        guard let handle = api.archive_read_new() else {
            throw ArchiveError(path: path, operation: "create an archive reader", message: "out of memory")
        }
        self.handle = handle
        self.path = path
        self.status = ArchiveStatus(api: api, handle: handle, path: path)
        try status.check(api.archive_read_support_format_zip_seekable(handle), "enable the zip reader")
        if !checksCRC {
            try status.check(
                api.archive_read_set_format_option(handle, "zip", "ignorecrc32", "1"), "turn off the CRC-32 check")
        }
        try status.check(api.archive_read_open_filename(handle, path, 64 * 1024), "open")
    }

    /// Reads the one entry whose local header starts `range`, with libarchive's streaming zip
    /// reader: no central directory is parsed and no byte outside the range is read, so an
    /// entry of a large package is reached in constant time.
    package init(path: String, entryRange range: ZipByteRange) throws {
        let api = try LibArchive.load(for: path)
        self.api = api
        guard let handle = api.archive_read_new() else {
            throw ArchiveError(path: path, operation: "create an archive reader", message: "out of memory")
        }
        self.handle = handle
        self.path = path
        self.status = ArchiveStatus(api: api, handle: handle, path: path)
        self.range = range
        try status.check(api.archive_read_support_format_zip_streamable(handle), "enable the zip reader")
        // Every entry read this way is checked against its SHA-256 by the caller.
        try status.check(
            api.archive_read_set_format_option(handle, "zip", "ignorecrc32", "1"), "turn off the CRC-32 check")
        let client = Unmanaged.passUnretained(range).toOpaque()
        try status.check(
            api.archive_read_open(
                handle, client, nil,
                { _, client, buffer in
                    let range = Unmanaged<ZipByteRange>.fromOpaque(client!).takeUnretainedValue()
                    return range.next(buffer!)
                }, nil), "open")
    }

    deinit {
        _ = api.archive_read_free(handle)
    }

    /// The next entry, or nil at the end of the archive.
    public func nextEntry() throws -> ArchiveEntryInfo? {
        var entry: OpaquePointer?
        let result = withUTF8CharacterType { api.archive_read_next_header(handle, &entry) }
        if result == LibArchive.eof { current = nil; return nil }
        try status.check(result, "read the next entry header")
        guard let entry else { throw status.error("read the next entry header") }
        let name = withUTF8CharacterType {
            api.archive_entry_pathname_utf8(entry).map { String(cString: $0) }
                ?? api.archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
        }
        let type = api.archive_entry_filetype(entry)
        let kind: ArchiveEntryInfo.Kind
        switch UInt32(type) {
        case LibArchive.regularFile: kind = api.archive_entry_symlink(entry) != nil ? .symlink : .regular
        case LibArchive.directory: kind = .directory
        case LibArchive.symbolicLink: kind = .symlink
        default: kind = .other
        }
        current = name
        return ArchiveEntryInfo(
            path: name,
            kind: kind,
            size: api.archive_entry_size_is_set(entry) != 0 ? api.archive_entry_size(entry) : nil,
            permissions: UInt32(api.archive_entry_perm(entry)),
            modificationTime: Int64(api.archive_entry_mtime(entry)))
    }

    /// Reads the next bytes of the current entry into `buffer`; 0 at the entry's end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count = api.archive_read_data(handle, base, buffer.count)
        if count < 0 { throw status.error("read entry \(current ?? "?")") }
        return count
    }

    /// Reads the rest of the current entry, refusing to hold more than `limit` bytes:
    /// an entry that inflates past what it declared never gets to fill memory.
    public func readData(limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try chunk.withUnsafeMutableBytes { (raw) in try read(into: raw) }
            if count == 0 { return bytes }
            if bytes.count + count > limit {
                throw ArchiveError(
                    path: path, operation: "read entry \(current ?? "?")",
                    message: "its data is larger than the \(limit) bytes expected")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Passes over the current entry's bytes without inflating them.
    public func skipData() throws {
        try status.check(api.archive_read_data_skip(handle), "skip entry \(current ?? "?")")
    }
}

/// A UTF-8 character type for libarchive's name conversions. libarchive turns a name a zip
/// flags as UTF-8 (as Python's `zipfile` and Info-ZIP write non-ASCII names) into the current
/// locale's charset, which fails for every non-ASCII name in the C locale a command-line
/// process starts in: the entry would then read as nameless. Set for the calling thread only
/// (`uselocale`), never for the process, so Lua's string functions keep the C locale, as under
/// stock Lua. Created once and never freed; nil where the system has no such locale.
private nonisolated(unsafe) let utf8CharacterType: locale_t? = {
    #if canImport(Glibc)
        return newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
    #else
        return newlocale(LC_CTYPE_MASK, "UTF-8", nil)
    #endif
}()

/// Runs `body` with `utf8CharacterType` as the thread's locale.
private func withUTF8CharacterType<Result>(_ body: () throws -> Result) rethrows -> Result {
    guard let utf8CharacterType else { return try body() }
    let previous = uselocale(utf8CharacterType)
    defer { uselocale(previous) }
    return try body()
}
