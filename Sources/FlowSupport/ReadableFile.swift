#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file open for reading in chunks, closed when released: what FileHandle's
/// `forReadingFrom`/`read(upToCount:)` were used for (FileHandle is not in FoundationEssentials).
package final class ReadableFile {
    private let descriptor: Int32
    private let path: String

    /// Opens `path`, or throws why not ("cannot read PATH: No such file or directory").
    package init(path: String) throws(ReadableFile.Failure) {
        self.path = path
        var opened: Int32
        repeat { opened = open(path, O_RDONLY | O_CLOEXEC) } while opened < 0 && errno == EINTR
        guard opened >= 0 else { throw Failure(path: path, code: errno) }
        descriptor = opened
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from where the last read ended; empty at the end of the file.
    package func read(upTo count: Int) throws(ReadableFile.Failure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
                #else
                    Darwin.read(descriptor, buffer.baseAddress! + filled, count - filled)
                #endif
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw Failure(path: path, code: errno) }
            if got == 0 { break }
            filled += got
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Everything from where the last read ended to the end of the file. A regular file is
    /// read into one buffer of its size (from `fstat`), not zeroed first; anything else, or a
    /// file that grew meanwhile, in chunks after it.
    package func readToEnd() throws(ReadableFile.Failure) -> [UInt8] {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return try rest(after: []) }
        // One byte more than the file holds: a read that fills it means the file grew.
        let capacity = Int(info.st_size) + 1
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            while initialized < capacity {
                #if canImport(Glibc)
                    let got = Glibc.read(descriptor, buffer.baseAddress! + initialized, capacity - initialized)
                #else
                    let got = Darwin.read(descriptor, buffer.baseAddress! + initialized, capacity - initialized)
                #endif
                if got < 0 && errno == EINTR { continue }
                if got < 0 { failure = errno }
                if got <= 0 { break }
                initialized += got
            }
        }
        if let failure { throw Failure(path: path, code: failure) }
        return bytes.count < capacity ? bytes : try rest(after: bytes)
    }

    /// `bytes`, then the file's chunks from where the last read ended to its end.
    private func rest(after bytes: [UInt8]) throws(ReadableFile.Failure) -> [UInt8] {
        var bytes = bytes
        while true {
            let chunk = try read(upTo: 1 << 16)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }

    /// Moves to `offset` bytes from the start.
    package func seek(to offset: Int64) throws(ReadableFile.Failure) {
        if lseek(descriptor, off_t(offset), SEEK_SET) < 0 { throw Failure(path: path, code: errno) }
    }

    /// Why a file could not be opened or read: the path and the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        package var path: String
        package var code: Int32
        package var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
    }
}
