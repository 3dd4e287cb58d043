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

/// One input file, opened for a streamed read; errors name the file and the entry it feeds.
final class InputFile {
    private let descriptor: Int32
    let path: String
    let entry: String
    /// The size when opened; the bytes actually read are what count.
    let size: Int64

    init(_ url: URL, entry: String) throws(PackageError) {
        path = url.path
        self.entry = entry
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { throw .inputUnreadable(file: path, entry: entry, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .inputUnreadable(file: path, entry: entry, reason: reason)
        }
        // A FIFO or device would block or never end; only regular files go into a package.
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .inputUnreadable(file: path, entry: entry, reason: "it is not a regular file")
        }
        self.descriptor = descriptor
        self.size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Fills `array` as far as the file allows; returns how many bytes were read.
    func readFully(_ array: inout [UInt8]) throws(PackageError) -> Int {
        var failure: PackageError?
        let count = array.withUnsafeMutableBytes { raw -> Int in
            do throws(PackageError) { return try readFully(into: raw) } catch { failure = error; return 0 }
        }
        if let failure { throw failure }
        return count
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PackageError) -> Int {
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw .inputUnreadable(file: path, entry: entry, reason: String(cString: strerror(errno)))
        }
    }

    /// Fills `buffer` as far as the file allows; fewer bytes only at the end of the file.
    func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(PackageError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            if count == 0 { break }
            done += count
        }
        return done
    }
}

#if canImport(Glibc)
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemRead = Darwin.read
#endif
