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
    /// The size `attributesOfItem` reports, whichever number type carries it: an NSNumber
    /// with Foundation, a UInt with FoundationEssentials.
    package static func size(in attributes: [FileAttributeKey: Any]) -> Int64? {
        if let size = attributes[.size] as? UInt { return Int64(size) }
        if let size = attributes[.size] as? Int64 { return size }
        if let size = attributes[.size] as? Int { return Int64(size) }
        return nil
    }

    /// The permission bits `attributesOfItem` reports (an NSNumber with Foundation, a UInt
    /// with FoundationEssentials).
    package static func posixPermissions(in attributes: [FileAttributeKey: Any]) -> Int? {
        if let bits = attributes[.posixPermissions] as? UInt { return Int(bits) }
        if let bits = attributes[.posixPermissions] as? Int { return bits }
        if let bits = attributes[.posixPermissions] as? Int16 { return Int(bits) }
        return nil
    }

    /// Every file, folder and link below `folder` as relative paths, folders before what they
    /// hold; symbolic links to folders are listed, not entered. What `enumerator(at:)` was used
    /// for (it is not in FoundationEssentials); `skippingHidden` leaves out names starting with
    /// "." and what is below them, as `.skipsHiddenFiles` did. `walkEntries`' paths.
    package func walk(_ folder: String, skippingHidden: Bool = false) -> [String] {
        let entries = walkEntries(folder) { _, name in !(skippingHidden && name.hasPrefix(".")) }
        guard skippingHidden else { return entries.map(\.path) }
        return entries.compactMap { entry in
            entry.path.split(separator: "/").last?.hasPrefix(".") == true ? nil : entry.path
        }
    }

    /// Whether `path` is a folder itself (a symbolic link to one is not), from one `lstat`
    /// (`attributesOfItem` also looked up the owner's and group's names: 1-2% of `fmt --check`
    /// over a tree, which asks this of every file its walk finds).
    package func isFolder(atPath path: String) -> Bool {
        var facts = stat()
        return lstat(path, &facts) == 0 && facts.st_mode & S_IFMT == S_IFDIR
    }

    #if !canImport(FoundationEssentials)
        /// `fileExists(atPath:isDirectory:)` with a Bool, as FoundationEssentials has it.
        package func fileExists(atPath path: String, isDirectory: inout Bool) -> Bool {
            var flag: ObjCBool = false
            defer { isDirectory = flag.boolValue }
            return fileExists(atPath: path, isDirectory: &flag)
        }
    #endif
}
