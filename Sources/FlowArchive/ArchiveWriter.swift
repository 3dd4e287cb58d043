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

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// Where the bytes go when the caller watches them (`init(path:observingWrites:)`).
    private var sink: WriteSink?

    /// Opens `path` for writing, creating or truncating it. `observer`, when given, sees every
    /// byte written to the file, in order, as it is written: a caller hashes the archive that
    /// way instead of reading it back.
    public init(path: String, observingWrites observer: ((UnsafeRawBufferPointer) -> Void)? = nil) throws {
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
        guard let observer else {
            try status.check(api.archive_write_open_filename(handle, path), "open for writing")
            return
        }
        // As archive_write_open_filename opens it, with the bytes passing `observer` on the way.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw ArchiveError(path: path, operation: "open for writing", message: String(cString: strerror(errno)))
        }
        let sink = WriteSink(descriptor: descriptor, observer: observer)
        self.sink = sink
        try checked(
            api.archive_write_open(
                handle, Unmanaged.passUnretained(sink).toOpaque(), nil, WriteSink.write, WriteSink.close),
            "open for writing")
    }

    /// `status.check`, with the system's reason when writing to the file itself failed.
    private func checked(_ code: Int32, _ operation: @autoclosure () -> String) throws {
        do {
            try status.check(code, operation())
        } catch let error as ArchiveError {
            guard let failure = sink?.failure else { throw error }
            throw ArchiveError(
                path: error.path, operation: error.operation, message: String(cString: strerror(failure)))
        }
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
        try checked(api.archive_write_header(handle, entry), "write the header of \(header.path)")
        currentPath = header.path
    }

    /// Appends bytes to the current entry.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let written = api.archive_write_data(handle, base, bytes.count)
        if written < 0 || written != bytes.count {
            let operation = "write entry \(currentPath ?? "?")"
            if let failure = sink?.failure {
                throw ArchiveError(path: status.path, operation: operation, message: String(cString: strerror(failure)))
            }
            throw status.error(operation)
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
        try checked(api.archive_write_close(handle), "finish the archive")
    }

    private func finishCurrentEntry() throws {
        guard let path = currentPath else { return }
        currentPath = nil
        try checked(api.archive_write_finish_entry(handle), "finish entry \(path)")
    }
}

/// The file a watched archive goes to: libarchive's write callback writes each block to it and
/// shows it to the observer.
private final class WriteSink {
    let descriptor: Int32
    let observer: (UnsafeRawBufferPointer) -> Void
    /// The `errno` of a failed write, if one failed.
    var failure: Int32?
    private var isClosed = false

    init(descriptor: Int32, observer: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.descriptor = descriptor
        self.observer = observer
    }

    deinit { closeFile() }

    func closeFile() {
        guard !isClosed else { return }
        isClosed = true
        _ = systemClose(descriptor)
    }

    static let write: LibArchive.WriteCallback = { _, data, buffer, length in
        guard let data, let buffer else { return -1 }
        let sink = Unmanaged<WriteSink>.fromOpaque(data).takeUnretainedValue()
        var done = 0
        while done < length {
            let count = systemWrite(sink.descriptor, buffer + done, length - done)
            if count < 0 {
                if errno == EINTR { continue }
                sink.failure = errno
                return -1
            }
            done += count
        }
        sink.observer(UnsafeRawBufferPointer(start: buffer, count: length))
        return length
    }

    static let close: LibArchive.CloseCallback = { _, data in
        guard let data else { return 0 }
        Unmanaged<WriteSink>.fromOpaque(data).takeUnretainedValue().closeFile()
        return 0
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
    private let systemClose = Glibc.close
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
    private let systemClose = Darwin.close
#endif
