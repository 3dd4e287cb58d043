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

extension FileManager {
    /// One entry `walkEntries` found.
    package struct WalkEntry: Sendable, Equatable {
        /// The path relative to the folder walked.
        package var path: String
        /// Whether it is a folder itself (a symbolic link to one is not).
        package var isFolder: Bool
    }

    /// Every file, folder and link below `folder`, each with whether it is a folder, from the
    /// folders' own listings (`readdir`'s entry type; one `lstat` only where the file system
    /// gives none), so a walk that must tell files from folders costs no `stat` a file.
    /// Folders for which `entering` (given the relative path and the name) says false are
    /// listed and not entered; symbolic links are not entered; an unreadable folder is listed
    /// and not entered. The order is the listings' own.
    package func walkEntries(
        _ folder: String, entering: (_ path: String, _ name: String) -> Bool = { _, _ in true }
    ) -> [WalkEntry] {
        var found: [WalkEntry] = []
        var pending = [""]
        let root = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        while let relative = pending.popLast() {
            let full = relative.isEmpty ? (root.isEmpty ? "/" : root) : root + "/" + relative
            guard let listing = opendir(full) else { continue }
            defer { closedir(listing) }
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                let type = Int32(entry.pointee.d_type)
                let isFolder =
                    type == Int32(DT_UNKNOWN) ? self.isFolder(atPath: full + "/" + name) : type == Int32(DT_DIR)
                found.append(WalkEntry(path: path, isFolder: isFolder))
                if isFolder && entering(path, name) { pending.append(path) }
            }
        }
        return found
    }
}
