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

/// A file written whole or not at all, the one way flowpkg replaces a file: a temporary file
/// beside the output, created exclusively, flushed and renamed over the output when complete,
/// removed otherwise. A reader sees the old file or the new one, never half of one.
///
/// - The output's permission bits (and owner, where the system allows) are kept: a
///   flowpkg.json of mode 600 stays 600. A new file gets `0666` less the umask.
/// - A symbolic link as the output is written through, to the file it names (`.follow`), or
///   refused with a message (`.refuse`): it is never replaced by a regular file.
/// - The temporary file is named `.NAME.PID.RAND.tmp`, so what a killed writer (`kill -9`, a
///   crash, power loss) left is recognised and removed by the next write beside that output.
package final class AtomicOutput {
    /// Why the temporary file could not be made or moved into place.
    package struct Failure: Error, CustomStringConvertible {
        /// The output (or its folder) concerned.
        package var path: String
        /// The system's reason.
        package var reason: String
        /// `errno` when a system call failed, else 0.
        package var code: Int32 = 0

        package init(path: String, reason: String, code: Int32 = 0) {
            self.path = path
            self.reason = reason
            self.code = code
        }

        package var description: String { "\(path): \(reason)" }
    }

    /// What to do when the output is a symbolic link.
    package enum Links: Sendable {
        /// Write the file the link names (following a chain of links), and keep the link.
        case follow
        /// Refuse: for folders flowpkg fills itself (`vendor/`), where a link could lead outside.
        case refuse
    }

    /// The temporary file to write.
    package let path: String
    /// The file the temporary file replaces: the output, or the file its links name.
    package let target: String
    private var moved = false

    /// Makes the temporary file beside `output` (beside the file it names, when it is a link),
    /// after removing what killed writers left there.
    package init(beside output: URL, links: Links = .follow) throws(Failure) {
        target = try Self.resolvedTarget(output.path, links: links)
        let folder = Self.folder(of: target)
        let name = Self.lastComponent(of: target)
        Self.removeStale(in: folder, output: name)
        var attempt = 0
        while true {
            let candidate = "\(folder)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 {
                close(descriptor)
                path = candidate
                return
            }
            attempt += 1
            if errno != EEXIST || attempt > 16 {
                throw Failure(
                    path: output.path, reason: "cannot create a file in \(folder): \(Self.systemReason())", code: errno)
            }
        }
    }

    /// Writes `bytes` as the file at `path`, whole or not at all. `creatingFolders` makes the
    /// missing folders above it first.
    package static func write(
        _ bytes: [UInt8], to path: String, links: Links = .follow, creatingFolders: Bool = false
    ) throws(Failure) {
        if creatingFolders { try makeFolders(folder(of: path)) }
        let output = try AtomicOutput(beside: URL(fileURLWithPath: path), links: links)
        defer { output.removeIfLeft() }
        try output.fill(with: bytes)
        try output.moveIntoPlace()
    }

    /// Replaces the temporary file's content with `bytes`.
    package func fill(with bytes: [UInt8]) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: target, reason: Self.systemReason(), code: errno) }
        defer { close(descriptor) }
        if let code = writeAll(descriptor, bytes) {
            throw Failure(path: target, reason: "cannot write it: \(String(cString: strerror(code)))", code: code)
        }
    }

    /// Gives the temporary file the target's mode and owner, flushes it and renames it over the
    /// target.
    package func moveIntoPlace() throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            var existing = stat()
            if stat(target, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG {
                fchmod(descriptor, existing.st_mode & 0o7777)
                // Allowed only to the owner's own ids or to root; elsewhere the writer owns it.
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
            // Flushed before the rename, so a crash never leaves a complete-looking but empty file.
            fsync(descriptor)
            close(descriptor)
        }
        try Self.rename(path, over: target)
        moved = true
    }

    /// Removes the temporary file unless it was moved into place.
    package func removeIfLeft() {
        if !moved { unlink(path) }
    }

    /// Renames a finished file or folder over `destination` (a folder only replaces an empty
    /// one) and flushes the folder that holds it: the one `rename(2)` in flowpkg. `code` in
    /// the failure tells `ENOTEMPTY`/`EEXIST` from other reasons.
    package static func rename(_ source: String, over destination: String) throws(Failure) {
        #if canImport(Glibc)
            let result = Glibc.rename(source, destination)
        #else
            let result = Darwin.rename(source, destination)
        #endif
        guard result == 0 else { throw Failure(path: destination, reason: systemReason(), code: errno) }
        let folder = open(folder(of: destination), O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Flushes a finished file and renames it over `destination` (a download assembled in a
    /// file of its own, kept to resume, and moved when checked).
    package static func place(finished source: String, at destination: String) throws(Failure) {
        let descriptor = open(source, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
        try rename(source, over: destination)
    }

    static func systemReason() -> String { String(cString: strerror(errno)) }
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
                let count = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
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

/// The C library's `write(2)`, which `AtomicOutput.write` hides inside the type.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
