import FlowSupport
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

/// The files under one folder of a project, found the way a user expects: hidden and editor
/// files skipped, symbolic links followed while they stay inside an allowed folder, loops caught.
struct FileTree {
    /// A file found under the root.
    struct Entry: Equatable {
        /// Slash-separated, relative to the root the walk started at.
        var relativePath: String
        /// The path as found (through any links), for reading and for diagnostics.
        var path: String
        /// False for FIFOs, sockets and devices, which are never read (a FIFO would block).
        var isRegularFile: Bool
    }

    /// Something under the root that cannot be used, with the reason.
    struct Problem: Equatable {
        enum Kind: Equatable {
            /// A symbolic link whose target is outside the allowed folder.
            case linkEscapes(target: String)
            /// A symbolic link whose target does not exist.
            case brokenLink
            /// A symbolic link that leads back to itself or to a folder above it.
            case linkLoop
            /// A folder that cannot be listed.
            case unreadableFolder(reason: String)
        }
        var path: String
        var kind: Kind
    }

    var entries: [Entry] = []
    var problems: [Problem] = []

    /// Whether a file or folder name is one flowpkg ignores: dot-files, editor backups and swap files.
    static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".swo")
            || (name.hasPrefix("#") && name.hasSuffix("#") && name.count > 1)
    }

    /// The canonical path of `path` (links and `..` resolved), or nil with `errno` set.
    static func realPath(_ path: String) -> String? { PathText.realPath(path) }

    /// Walks `root`; links must resolve inside `allowedRoot` (a canonical path).
    init(walking root: String, allowedRoot: String) {
        var visited = Set<FolderID>()
        if let id = FolderID(path: root) { visited.insert(id) }
        walk(folder: root, relative: "", allowedRoot: allowedRoot, visited: &visited)
        entries.sort { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
    }

    private mutating func walk(folder: String, relative: String, allowedRoot: String, visited: inout Set<FolderID>) {
        let listing: [(name: String, type: UInt8)]
        switch Self.list(folder) {
        case .success(let found): listing = found
        case .failure(let reason):
            problems.append(Problem(path: folder, kind: .unreadableFolder(reason: reason.reason)))
            return
        }
        for (name, type) in listing.sorted(by: { $0.name < $1.name }) where !Self.isIgnored(name) {
            let path = folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            // The listing says what most entries are: only folders (whose identity loop
            // detection needs), links and the odd file system that does not say are stat-ed.
            if type == Self.regularType {
                entries.append(Entry(relativePath: relativePath, path: path, isRegularFile: true))
                continue
            }
            if type != Self.directoryType && type != Self.linkType && type != Self.unknownType {
                entries.append(Entry(relativePath: relativePath, path: path, isRegularFile: false))
                continue
            }
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }  // removed while listing
            if (info.st_mode & S_IFMT) == S_IFLNK {
                guard let target = Self.realPath(path) else {
                    problems.append(Problem(path: path, kind: errno == ELOOP ? .linkLoop : .brokenLink))
                    continue
                }
                guard
                    target == allowedRoot
                        || target.hasPrefix(allowedRoot.hasSuffix("/") ? allowedRoot : allowedRoot + "/")
                else {
                    problems.append(Problem(path: path, kind: .linkEscapes(target: target)))
                    continue
                }
                guard stat(target, &info) == 0 else {
                    problems.append(Problem(path: path, kind: .brokenLink))
                    continue
                }
                // A link to the folder it is in, or above, would list the same files forever.
                if (info.st_mode & S_IFMT) == S_IFDIR, let here = Self.realPath(folder),
                    here == target || here.hasPrefix(target.hasSuffix("/") ? target : target + "/")
                {
                    problems.append(Problem(path: path, kind: .linkLoop))
                    continue
                }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let id = FolderID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
                guard visited.insert(id).inserted else {
                    problems.append(Problem(path: path, kind: .linkLoop))
                    continue
                }
                walk(folder: path, relative: relativePath, allowedRoot: allowedRoot, visited: &visited)
                visited.remove(id)
            case S_IFREG:
                entries.append(Entry(relativePath: relativePath, path: path, isRegularFile: true))
            default:
                entries.append(Entry(relativePath: relativePath, path: path, isRegularFile: false))
            }
        }
    }

    // d_type values (the same on Linux and the BSDs).
    private static let unknownType: UInt8 = 0
    private static let directoryType: UInt8 = 4
    private static let regularType: UInt8 = 8
    private static let linkType: UInt8 = 10

    /// The names in `folder` with their d_type, "." and ".." left out; or why it cannot be listed.
    private static func list(_ folder: String) -> Result<[(name: String, type: UInt8)], ListFailure> {
        guard let directory = opendir(folder) else {
            return .failure(ListFailure(reason: String(cString: strerror(errno))))
        }
        defer { closedir(directory) }
        var found: [(name: String, type: UInt8)] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(ListFailure(reason: String(cString: strerror(errno)))) }
                return .success(found)
            }
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            found.append((name, entry.pointee.d_type))
        }
    }

    private struct ListFailure: Error {
        var reason: String
    }

    /// Identifies a folder whatever path reached it, so a link back up is seen as a loop.
    struct FolderID: Hashable {
        var device: UInt64
        var inode: UInt64

        init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }
}
