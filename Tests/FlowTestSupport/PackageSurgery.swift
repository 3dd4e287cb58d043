import FlowPackage
import Foundation

/// Damage done to real packages on purpose, for the tests that must see it refused.
public enum PackageSurgery {
    /// Rewrites the package with `entry`'s first byte changed but its size kept: only its
    /// SHA-256 can tell. Returns false when the package has no such non-empty entry.
    @discardableResult
    public static func corrupt(_ package: URL, entry: String) throws -> Bool {
        let reader = try ArchiveReader(path: package.path)
        var entries: [(ArchiveEntryInfo, [UInt8])] = []
        var found = false
        while let info = try reader.nextEntry() {
            var bytes = try reader.readData(limit: 1 << 30)
            if info.path == entry, !bytes.isEmpty {
                bytes[0] ^= 0x20
                found = true
            }
            entries.append((info, bytes))
        }
        guard found else { return false }
        let copy = package.deletingLastPathComponent().appendingPathComponent("corrupt-\(UUID().uuidString).zip")
        let writer = try ArchiveWriter(path: copy.path)
        for (info, bytes) in entries {
            try writer.addEntry(
                ArchiveEntryHeader(
                    path: info.path, size: Int64(bytes.count), compression: .store,
                    modificationTime: info.modificationTime, permissions: info.permissions),
                bytes: bytes)
        }
        try writer.close()
        try FileManager.default.removeItem(at: package)
        try FileManager.default.moveItem(at: copy, to: package)
        return true
    }
}
