/// How one entry's bytes are stored in a zip.
public enum EntryCompression: Sendable, Equatable {
    /// Deflate at the writer's fixed level; for text and code.
    case deflate
    /// Stored as is; for media that is already compressed.
    case store
}

/// The fixed facts of one entry: everything that ends up in its zip headers.
public struct ArchiveEntryHeader: Sendable, Equatable {
    public var path: String
    public var size: Int64
    public var compression: EntryCompression
    /// Seconds since 1970; packages use a fixed time so the same input gives the same bytes.
    public var modificationTime: Int64
    public var permissions: UInt32

    public init(
        path: String, size: Int64, compression: EntryCompression,
        modificationTime: Int64, permissions: UInt32 = 0o644
    ) {
        self.path = path
        self.size = size
        self.compression = compression
        self.modificationTime = modificationTime
        self.permissions = permissions
    }
}

/// Writes a zip archive through libarchive, one streamed entry at a time.
///
/// Owner, group and times are fixed by the caller's headers, so the output depends only on
/// the entries written and their order. Call `close()` to finish; an archive that is not
/// closed is incomplete.
public final class ArchiveWriter {
    /// The deflate level every package uses; part of the format's reproducibility.
    public static let compressionLevel = 6

    private let api: LibArchive
    private let handle: OpaquePointer
    private let status: ArchiveStatus
    private let entry: OpaquePointer
    private var isClosed = false
    private var currentPath: String?

    /// Opens `path` for writing, creating or truncating it.
    public init(path: String) throws {
        let api = try LibArchive.load(for: path)
        self.api = api
        guard let handle = api.archive_write_new(), let entry = api.archive_entry_new() else {
            throw ArchiveError(path: path, operation: "create an archive writer", message: "out of memory")
        }
        self.handle = handle
        self.entry = entry
        self.status = ArchiveStatus(api: api, handle: handle, path: path)
        try status.check(api.archive_write_set_format_zip(handle), "select the zip format")
        try status.check(
            api.archive_write_set_format_option(handle, "zip", "compression-level", "\(Self.compressionLevel)"),
            "set the compression level")
        // A regular file is never padded to a block size: the bytes are exactly the zip.
        try status.check(api.archive_write_set_bytes_in_last_block(handle, 1), "set the block size")
        try status.check(api.archive_write_open_filename(handle, path), "open for writing")
    }

    deinit {
        if !isClosed { _ = api.archive_write_close(handle) }
        _ = api.archive_write_free(handle)
        api.archive_entry_free(entry)
    }

    /// Starts an entry; its bytes follow through `write(_:)`, exactly `header.size` of them.
    public func beginEntry(_ header: ArchiveEntryHeader) throws {
        try finishCurrentEntry()
        _ = api.archive_entry_clear(entry)
        api.archive_entry_set_pathname_utf8(entry, header.path)
        api.archive_entry_set_filetype(entry, LibArchive.regularFile)
        api.archive_entry_set_perm(entry, .init(header.permissions))
        api.archive_entry_set_size(entry, header.size)
        api.archive_entry_set_mtime(entry, .init(header.modificationTime), 0)
        api.archive_entry_set_uid(entry, 0)
        api.archive_entry_set_gid(entry, 0)
        switch header.compression {
        case .deflate: try status.check(api.archive_write_zip_set_compression_deflate(handle), "select deflate")
        case .store: try status.check(api.archive_write_zip_set_compression_store(handle), "select store")
        }
        try status.check(api.archive_write_header(handle, entry), "write the header of \(header.path)")
        currentPath = header.path
    }

    /// Appends bytes to the current entry.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let written = api.archive_write_data(handle, base, bytes.count)
        if written < 0 || written != bytes.count {
            throw status.error("write entry \(currentPath ?? "?")")
        }
    }

    /// Appends bytes to the current entry.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in try write(raw) }
    }

    /// Writes a whole entry whose bytes are already in memory (a manifest, a small file).
    public func addEntry(_ header: ArchiveEntryHeader, bytes: [UInt8]) throws {
        var header = header
        header.size = Int64(bytes.count)
        try beginEntry(header)
        try write(bytes)
    }

    /// Writes the central directory and closes the file.
    public func close() throws {
        guard !isClosed else { return }
        try finishCurrentEntry()
        isClosed = true
        try status.check(api.archive_write_close(handle), "finish the archive")
    }

    private func finishCurrentEntry() throws {
        guard let path = currentPath else { return }
        currentPath = nil
        try status.check(api.archive_write_finish_entry(handle), "finish entry \(path)")
    }
}
