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

/// Where an atomic write goes, and what killed writers left there.
extension AtomicOutput {
    /// The file a write to `path` replaces: `path` itself, or, when it is a symbolic link, the
    /// file at the end of its chain of links (which need not exist yet).
    static func resolvedTarget(_ path: String, links: Links) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            if links == .refuse {
                throw Failure(
                    path: path,
                    reason: "it is a symbolic link (to \(destination(of: current) ?? "?")); flowpkg writes this "
                        + "file itself and does not follow links there: remove the link", code: ELOOP)
            }
            guard let next = destination(of: current) else {
                throw Failure(path: path, reason: "its symbolic link cannot be read: \(systemReason())", code: errno)
            }
            current = next.hasPrefix("/") ? next : PathText.parent(of: current) + "/" + next
        }
        throw Failure(
            path: path, reason: "it is a chain of symbolic links that does not end: replace it with a file",
            code: ELOOP)
    }

    /// What the symbolic link at `path` holds.
    private static func destination(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func folder(of path: String) -> String {
        path.contains("/") ? PathText.parent(of: path) : "."
    }

    static func lastComponent(of path: String) -> String { PathText.lastComponent(of: path) }

    /// Creates `folder` and the folders above it that are missing.
    static func makeFolders(_ folder: String) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Failure(path: folder, reason: "cannot create the folder: \(failureReason(error))")
        }
    }

    /// Removes the temporary files a writer that was killed (`kill -9`, a crash, power loss)
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
}
