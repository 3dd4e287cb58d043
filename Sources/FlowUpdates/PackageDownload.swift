#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a download went: what it fetched over the network and what it reused.
public struct DownloadReport: Equatable, Sendable {
    /// The stored update's id (its file's SHA-256).
    public var id: String
    /// The package's size.
    public var size: Int64
    /// Bytes read from the feed for it (directory and ranges included).
    public var fetched: Int64
    /// Bytes copied from packages already on the device (a delta download).
    public var reused: Int64
    /// Bytes kept from an interrupted download (a resumed one).
    public var resumed: Int64
}

/// Where a download writes: the partial file, written with write(2) so a full disk or a file
/// size limit is an error to report, never a crash.
struct PartialFile {
    let url: URL
    let descriptor: Int32
    private(set) var size: Int64 = 0
    private(set) var hasher = SHA256()

    /// Opens (creating) `url` and takes its lock; nil when another process holds it.
    static func open(_ url: URL) throws(UpdateError) -> PartialFile? {
        let descriptor = systemOpen(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .store(path: url.path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            _ = systemClose(descriptor)
            return nil
        }
        return PartialFile(url: url, descriptor: descriptor)
    }

    /// Keeps what is there (hashing it again) when it is no longer than `limit`; else empties it.
    mutating func resume(upTo limit: Int64) throws(UpdateError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw error() }
        let existing = Int64(info.st_size)
        guard existing > 0, existing <= limit else {
            try truncate()
            return
        }
        var offset: Int64 = 0
        while offset < existing {
            let count = Int(min(1 << 20, existing - offset))
            guard let bytes = ZipLayout.readBytes(descriptor, at: offset, count: count) else { throw error() }
            hasher.update(data: bytes)
            offset += Int64(count)
        }
        size = existing
    }

    mutating func truncate() throws(UpdateError) {
        guard ftruncate(descriptor, 0) == 0 else { throw error() }
        size = 0
        hasher = SHA256()
    }

    /// Appends `bytes` at the end; a short or failed write (ENOSPC, EFBIG) throws.
    mutating func append(_ bytes: ArraySlice<UInt8>) throws(UpdateError) {
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(size) + off_t(done))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw error()
            }
            done += written
        }
        hasher.update(data: bytes)
        size += Int64(bytes.count)
    }

    func synchronize() throws(UpdateError) {
        guard fsync(descriptor) == 0 else { throw error() }
    }

    func close() { _ = systemClose(descriptor) }

    private func error() -> UpdateError {
        .store(path: url.path, reason: String(cString: strerror(errno)))
    }
}

// The C calls under the names this file's methods shadow.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }

extension UpdateStore {
    /// The partial file of the download of `sha256`.
    func partialURL(_ sha256: String) -> URL { downloads.appendingPathComponent("\(sha256).part") }

    /// Deletes files in `downloads/` that no process holds, except `keeping`'s partial file and
    /// (when `keeping` is nil) every resumable `<sha256>.part`.
    func removeStaleDownloads(keeping sha256: String?) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? [] {
            let resumable = name.hasSuffix(".part") && isSHA256(String(name.dropLast(".part".count)))
            if sha256.map({ name == "\($0).part" }) ?? resumable { continue }
            // A download in progress holds its file's lock: only a stopped process's is stale.
            let partial = downloads.appendingPathComponent(name)
            let descriptor = open(partial.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(at: partial) }
            close(descriptor)
        }
    }

    /// Downloads the feed entry's package from `url`, checks it and stores it.
    ///
    /// An interrupted download of the same package is resumed with an HTTP range. Otherwise,
    /// when `local` packages (the embedded one, stored updates) are given and the entry names
    /// its directory's offset, only the entries the device lacks are fetched, by byte range,
    /// and the package is assembled beside them. Whatever way it came, the file must then
    /// match the index's size and SHA-256 and pass every check of a full download. Throws
    /// `UpdateError.refused` (the download deleted) when a check fails; a write error
    /// deletes the partial file; a transfer cut short keeps it to resume.
    func download(
        _ entry: UpdateFeed.Entry, from url: URL, local: [URL] = [], timeout: TimeInterval,
        deadline: CheckDeadline, maxBytes: Int64 = .max, limits: PackageLimits = .default
    ) throws(UpdateError) -> DownloadReport {
        guard let expectedSHA = entry.sha256, isSHA256(expectedSHA), let expectedSize = entry.size, expectedSize >= 0
        else {
            throw .badFeed(
                "the entry for \(entry.identifier) \(entry.version ?? "") has no valid \"sha256\" and \"size\"")
        }
        guard expectedSize <= maxBytes else {
            throw .notDownloaded(
                version: entry.version,
                reason: "the feed lists it at \(expectedSize) bytes, more than this host's limit of \(maxBytes)")
        }
        removeStaleDownloads(keeping: expectedSHA)
        let partialURL = partialURL(expectedSHA)
        guard var file = try PartialFile.open(partialURL) else {
            throw .store(path: partialURL.path, reason: "another process is downloading this update")
        }
        var keepPartial = false
        var failed = true
        defer {
            file.close()
            if failed && !keepPartial { try? FileManager.default.removeItem(at: partialURL) }
        }
        var report = DownloadReport(id: expectedSHA, size: expectedSize, fetched: 0, reused: 0, resumed: 0)
        do {
            try transfer(
                entry, from: url, into: &file, local: local, timeout: timeout, deadline: deadline, report: &report)
        } catch {
            switch error {
            case .store:
                // A write failed (a full disk, a file size limit): nothing of it is kept.
                throw error
            case .unreachable(_, let reason):
                // A transfer cut short is kept to resume; one that brought too much is not.
                keepPartial =
                    file.size > 0 && file.size < expectedSize && !reason.hasPrefix(FeedTransport.declaredTooLarge)
                throw .refused(
                    version: entry.version,
                    reason: "the download from \(url.absoluteString) failed: \(reason)"
                        + (keepPartial ? " (the \(file.size) bytes received are kept, to resume)" : ""))
            case .deadline:
                keepPartial = file.size > 0 && file.size < expectedSize
                throw error
            default:
                throw error
            }
        }
        guard file.size == expectedSize else {
            throw .refused(
                version: entry.version,
                reason: "the download is \(file.size) bytes; the feed lists \(expectedSize) (incomplete or changed)")
        }
        let sha = file.hasher.finalize().hexDigits
        guard sha == expectedSHA else {
            throw .refused(
                version: entry.version, reason: "the download's SHA-256 is \(sha); the feed lists \(expectedSHA)")
        }
        try check(partialURL, version: entry.version, limits: limits)
        let target = self.url(of: sha)
        do {
            try AtomicOutput.place(finished: partialURL.path, at: target.path)
        } catch {
            throw .store(path: target.path, reason: error.reason)
        }
        failed = false
        return report
    }

    /// Brings the partial file to the whole package: resumes it, or assembles it beside the
    /// `local` packages when the entry allows (fetching it whole when that does not give the
    /// published file), or fetches what is missing.
    private func transfer(
        _ entry: UpdateFeed.Entry, from url: URL, into file: inout PartialFile, local: [URL],
        timeout: TimeInterval, deadline: CheckDeadline, report: inout DownloadReport
    ) throws(UpdateError) {
        let expectedSize = report.size, expectedSHA = report.id
        try file.resume(upTo: expectedSize)
        report.resumed = file.size
        var assembled = false
        if file.size == 0, !local.isEmpty, let offset = entry.directoryOffset {
            // The least first (only what changed and its directory records), then the
            // whole directory; nothing of a delta that does not apply is kept.
            let held = Self.heldEntries(in: local)
            assembled = try assembleSparsely(
                into: &file, entry: entry, directoryOffset: offset, url: url, held: held, timeout: timeout,
                deadline: deadline, report: &report)
            if !assembled {
                if file.size > 0 { try file.truncate() }
                assembled = try assembleFromLocal(
                    into: &file, entry: entry, directoryOffset: offset, url: url, local: local, timeout: timeout,
                    deadline: deadline, report: &report)
            }
        }
        if assembled {
            // Assembled beside what the device holds. Should it not be the published file
            // (a local copy damaged where the directory cannot tell), the whole package is
            // fetched instead; the checks below are the same either way.
            if file.size != expectedSize || file.hasher.finalize().hexDigits != expectedSHA {
                try file.truncate()
                report.reused = 0
                try fetchRest(
                    into: &file, url: url, size: expectedSize, timeout: timeout, deadline: deadline,
                    report: &report)
            }
        } else if file.size < expectedSize {
            if report.resumed == 0, file.size > 0 { try file.truncate() }
            try fetchRest(
                into: &file, url: url, size: expectedSize, timeout: timeout, deadline: deadline, report: &report)
        }
        try file.synchronize()
    }

    /// Fetches the package from `file.size` to `size`: a range when something is there
    /// already (the whole file again when the server ignores ranges).
    private func fetchRest(
        into file: inout PartialFile, url: URL, size: Int64, timeout: TimeInterval, deadline: CheckDeadline,
        report: inout DownloadReport
    ) throws(UpdateError) {
        var target = file
        defer { file = target }
        if target.size > 0 {
            do {
                try FeedTransport.get(
                    url, limit: size - target.size, timeout: timeout, deadline: deadline,
                    range: .init(start: target.size, end: nil), wholeAllowed: false
                ) { (piece) throws(UpdateError) in
                    report.fetched += Int64(piece.count)
                    try target.append(piece)
                }
                return
            } catch {
                guard case .unreachable(_, FeedTransport.rangesUnsupported) = error else { throw error }
                try target.truncate()
                report.resumed = 0
            }
        }
        // At most the declared size is written: one byte more stops the transfer.
        try FeedTransport.get(url, limit: size, timeout: timeout, deadline: deadline) { (piece) throws(UpdateError) in
            report.fetched += Int64(piece.count)
            try target.append(piece)
        }
    }

    /// Assembles the package from the entries `local` packages hold and byte ranges of the
    /// rest; false (nothing written) when a delta is not possible: the directory cannot be
    /// read, the server ignores ranges, or nothing local matches.
    private func assembleFromLocal(
        into file: inout PartialFile, entry: UpdateFeed.Entry, directoryOffset: Int64, url: URL, local: [URL],
        timeout: TimeInterval, deadline: CheckDeadline, report: inout DownloadReport
    ) throws(UpdateError) -> Bool {
        let size = entry.size ?? 0
        guard directoryOffset > 0, directoryOffset < size, size - directoryOffset <= ZipLayout.maxDirectoryBytes,
            url.scheme == "http" || url.scheme == "file"
        else { return false }
        var tail: [UInt8] = []
        do {
            try FeedTransport.get(
                url, limit: size - directoryOffset, timeout: timeout, deadline: deadline,
                range: .init(start: directoryOffset, end: size - 1), wholeAllowed: false
            ) { tail += $0 }
        } catch {
            // No delta from a server that will not serve the directory's range (it ignores
            // ranges, refuses this one, or the file is not what the index says): the whole
            // package is fetched instead, and judged as always.
            if case .unreachable = error { return false }
            throw error
        }
        report.fetched += Int64(tail.count)
        guard let layout = ZipLayout.parse(tail: tail, directoryOffset: directoryOffset, fileSize: size) else {
            return false
        }
        // What the device holds, by span key.
        var held: [String: (url: URL, start: Int64)] = [:]
        for package in local {
            guard let layout = ZipLayout.read(package) else { continue }
            for span in layout.spans where held[span.key] == nil { held[span.key] = (package, span.start) }
        }
        guard layout.spans.contains(where: { held[$0.key] != nil }) else { return false }
        // Pieces in file order; neighbouring fetched spans become one range.
        enum Piece {
            case local(URL, start: Int64, length: Int64)
            case remote(start: Int64, length: Int64)
        }
        var pieces: [Piece] = []
        for span in layout.spans {
            if let (source, start) = held[span.key] {
                pieces.append(.local(source, start: start, length: span.length))
            } else if case .remote(let start, let length)? = pieces.last {
                pieces[pieces.count - 1] = .remote(start: start, length: length + span.length)
            } else {
                pieces.append(.remote(start: span.start, length: span.length))
            }
        }
        for piece in pieces {
            switch piece {
            case .local(let source, let start, let length):
                try copy(from: source, start: start, length: length, into: &file)
                report.reused += length
            case .remote(let start, let length):
                var target = file
                defer { file = target }
                try FeedTransport.get(
                    url, limit: length, timeout: timeout, deadline: deadline,
                    range: .init(start: start, end: start + length - 1), wholeAllowed: false
                ) { (piece) throws(UpdateError) in
                    report.fetched += Int64(piece.count)
                    try target.append(piece)
                }
            }
        }
        try file.append(tail[...])
        return true
    }

    func copy(from source: URL, start: Int64, length: Int64, into file: inout PartialFile)
        throws(UpdateError)
    {
        let descriptor = open(source.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .store(path: source.path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var offset: Int64 = 0
        while offset < length {
            let count = Int(min(1 << 20, length - offset))
            guard let bytes = ZipLayout.readBytes(descriptor, at: start + offset, count: count) else {
                throw .store(path: source.path, reason: "it could not be read")
            }
            try file.append(bytes[...])
            offset += Int64(count)
        }
    }
}
