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

/// A file written whole or not at all: a temporary file beside the output, created
/// exclusively, flushed and renamed over the output when complete, removed otherwise. A reader
/// sees the old file or the new one, never half of one; what a killed writer left is cleaned
/// up by the next. `flowpkg export`'s package and the update store's files are written so.
package final class AtomicOutput {
    /// Why the temporary file could not be made or moved into place.
    package struct Failure: Error {
        /// The output (or its folder) concerned.
        package var path: String
        /// The system's reason.
        package var reason: String
    }

    /// The temporary file to write.
    package let path: String
    private let output: String
    private var moved = false

    package init(beside output: URL) throws(Failure) {
        self.output = output.path
        let folder = output.deletingLastPathComponent().path
        Self.removeStale(in: folder, output: output.lastPathComponent)
        var attempt = 0
        while true {
            let candidate =
                "\(folder)/.\(output.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                close(descriptor)
                path = candidate
                return
            }
            attempt += 1
            if errno != EEXIST || attempt > 16 {
                throw Failure(
                    path: output.path,
                    reason: "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Removes the temporary files an export that was killed (`kill -9`, a crash, power loss)
    /// left beside `output`: only files named exactly as this class names them
    /// (`.NAME.PID.RAND.tmp`, both numbers decimal), only regular files, and only when
    /// process PID no longer exists (`kill(pid, 0)` fails with `ESRCH`). A file whose process
    /// is alive, or any other file, is never touched.
    package static func removeStale(in folder: String, output: String) {
        let prefix = "." + output + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            guard let pid = stalePID(name, prefix: prefix) else { continue }
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(path) }
        }
    }

    /// The PID in a temporary file's name of this class's form, or nil for any other name.
    package static func stalePID(_ name: String, prefix: String) -> pid_t? {
        guard name.count > prefix.count + 4 else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(".tmp".count)
        let parts = middle.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let pid = pid_t(parts[0]), pid > 0, UInt32(parts[1]) != nil, pid != getpid()
        else { return nil }
        return pid
    }

    /// Flushes the temporary file and renames it over the output.
    package func moveIntoPlace() throws(Failure) {
        // Flushed before the rename, so a crash never leaves a complete-looking but empty package.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        if rename(path, output) != 0 {
            throw Failure(path: output, reason: String(cString: strerror(errno)))
        }
        moved = true
    }

    /// Removes the temporary file unless it was moved into place.
    package func removeIfLeft() {
        if !moved { unlink(path) }
    }
}

extension AtomicOutput {
    /// Replaces the file at `path` with `bytes`, whole or not at all: a symbolic link is
    /// followed (the file it points to is replaced, the link stays), and the file keeps its
    /// permission bits. A read-only file is refused, not replaced. `flowpkg fmt` writes so.
    package static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &resolved) != nil else {
            throw Failure(path: path, reason: String(cString: strerror(errno)))
        }
        let target = String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var info = stat()
        guard stat(target, &info) == 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        // The permission bits decide, for root too (whom access(2) lets write anything).
        guard info.st_mode & 0o222 != 0, access(target, W_OK) == 0 else {
            throw Failure(path: path, reason: "the file is read-only")
        }
        let output = try AtomicOutput(beside: URL(fileURLWithPath: target))
        defer { output.removeIfLeft() }
        let descriptor = open(output.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
        fchmod(descriptor, info.st_mode & 0o7777)
        close(descriptor)
        if let failure { throw Failure(path: path, reason: String(cString: strerror(failure))) }
        try output.moveIntoPlace()
    }
}
