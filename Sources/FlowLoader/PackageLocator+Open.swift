import CSystemCalls
import FlowPackage
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

extension PackageLocator {
    /// The one package with `identifier` in `directories`, opened and checked as
    /// `EmbeddedPackageSource(contentsOf:expectedIdentifier:)` opens it, with the same errors as
    /// `locate(_:in:)` then that initializer: each candidate is opened once, the match kept
    /// (what a launch does first; `Benchmarks/README.md`, host_launch).
    public static func open(_ identifier: PackageIdentifier, in directories: [URL]) throws(LoaderError)
        -> EmbeddedPackageSource
    {
        var found: [PackageCandidate] = []
        var opened: [(path: String, reader: PackageReader)] = []
        var refused: [(path: String, reasons: [String])] = []
        for directory in directories {
            let folder = Self.fileSystemPath(of: directory)
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            // A folder that cannot be read holds no package, as `locate` finds.
            let listing = openFolder(folder)
            guard listing >= 0 else { continue }
            defer { close(listing) }
            guard let names = packageNames(inFolder: listing) else { continue }
            for name in names {
                let path = prefix + name
                do {
                    // Opened in the folder just listed: its path is not walked again.
                    let reader = try PackageReader(name: name, inFolder: listing, path: path)
                    found.append(PackageCandidate(path: path, identifier: reader.identifier.rawValue))
                    if reader.identifier == identifier { opened.append((path, reader)) }
                } catch {
                    let reasons = (error as? PackageError)?.problems.map(\.description) ?? ["\(error)"]
                    // A package refused as a whole may still name its identifier: then it is the
                    // one asked for, refused, rather than none found.
                    let url = URL(fileURLWithPath: path, isDirectory: false)  // no stat to ask
                    if let manifest = try? PackageReader.readManifest(at: url) {
                        found.append(PackageCandidate(path: path, identifier: manifest.identifier.rawValue))
                        if manifest.identifier == identifier { refused.append((path, reasons)) }
                    } else {
                        found.append(
                            PackageCandidate(path: path, identifier: nil, problem: reasons.joined(separator: "; ")))
                    }
                }
            }
        }
        let matches = found.filter { $0.identifier == identifier.rawValue }.map(\.path)
        guard matches.count == 1 else {
            if matches.isEmpty {
                throw .packageNotFound(identifier: identifier, searched: directories.map(\.path), found: found)
            }
            throw .ambiguousPackage(identifier: identifier, matches: matches, found: found)
        }
        if let (path, reasons) = refused.first { throw .packageRefused(location: path, reasons: reasons) }
        return EmbeddedPackageSource(reader: opened[0].reader, location: opened[0].path)
    }

    /// The names of the `.luapkg` files in the folder open as `descriptor`, sorted; nil when it
    /// cannot be read. On Linux one `getdents64` a block (CSystemCalls): no `fstat` and no
    /// 32 KiB buffer as `opendir` makes (Benchmarks/README.md, host_launch). An app folder's
    /// few names fit the first KiB, on the stack; a folder that needs a third read gets 32 KiB.
    static func packageNames(inFolder descriptor: Int32) -> [String]? {
        var names: [String] = []
        #if os(Linux)
            var large: UnsafeMutableRawBufferPointer?
            defer { large?.deallocate() }
            let listed = withUnsafeTemporaryAllocation(byteCount: 1024, alignment: 8) { small -> Bool in
                var reads = 0
                while true {
                    let buffer = large ?? small
                    let base = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
                    let count = csystem_folder_names(descriptor, base, buffer.count)
                    if count < 0 { return false }
                    if count == 0 { return true }
                    reads += 1
                    if reads == 2 { large = .allocate(byteCount: 32 * 1024, alignment: 8) }
                    var at = 0
                    while at < count {
                        let name = UnsafeRawBufferPointer(start: base + at, count: strlen(base + at))
                        at += name.count + 1
                        if name.count > 7, memcmp(name.baseAddress! + name.count - 7, ".luapkg", 7) == 0 {
                            names.append(String(decoding: name, as: UTF8.self))
                        }
                    }
                }
            }
            guard listed else { return nil }
        #else
            guard let listing = fdopendir(dup(descriptor)) else { return nil }
            defer { closedir(listing) }
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasSuffix(".luapkg") { names.append(name) }
            }
        #endif
        return names.sorted()
    }

    /// `url.path`, read without decoding when there is nothing to decode: a path with no `%`
    /// is its own percent-decoded form, and `path(percentEncoded: true)` is a copy where
    /// `path` walks the URL's text again to decode it (0.1 µs against 0.7 µs a launch,
    /// Benchmarks/README.md, host_launch). A trailing `/` may stay; the folder is the same.
    static func fileSystemPath(of url: URL) -> String {
        let encoded = url.path(percentEncoded: true)
        let plain = encoded.utf8.withContiguousStorageIfAvailable { !$0.isEmpty && !$0.contains(UInt8(ascii: "%")) }
        return plain == true ? encoded : url.path
    }
}

/// The folder at `path` opened for listing, or -1 (outside `PackageLocator`, whose `open` is
/// the locator's own).
private func openFolder(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
}
