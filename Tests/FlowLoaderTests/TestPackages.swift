import FlowPackage
import Foundation

/// Real `.luapkg` files written by FlowPackage's writer, in a scratch folder per test.
struct TestPackages {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowpkg-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes a package named `file` from modules (relative path → code) and resources
    /// (relative path → bytes).
    @discardableResult
    func make(_ file: String, identifier: String = "com.example.app", start: String? = "main",
              modules: [String: String], resources: [String: [UInt8]] = [:]) throws -> URL {
        let inputs = folder.appendingPathComponent("inputs-\(UUID().uuidString)")
        var moduleInputs: [PackageInput.Module] = []
        for (path, code) in modules.sorted(by: { $0.key < $1.key }) {
            let url = inputs.appendingPathComponent("Sources/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(code.utf8).write(to: url)
            var name = String(path.dropLast(".lua".count))
            if name.hasSuffix("/init") { name = String(name.dropLast("/init".count)) }
            moduleInputs.append(.init(name: try ModuleName(name.replacingOccurrences(of: "/", with: ".")), relativePath: path, file: url))
        }
        var resourceInputs: [PackageInput.Resource] = []
        for (path, bytes) in resources.sorted(by: { $0.key < $1.key }) {
            let url = inputs.appendingPathComponent("Resources/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            resourceInputs.append(.init(key: try ResourceKey(relativePath: path), file: url))
        }
        let input = PackageInput(identifier: try PackageIdentifier(identifier), name: "Test", version: "1.0.0",
                                 startModule: try start.map { try ModuleName($0) }, modules: moduleInputs, resources: resourceInputs)
        let output = folder.appendingPathComponent(file)
        try PackageWriter.write(input, to: output)
        return output
    }

    /// Rewrites the package with `entry`'s bytes changed but its size kept: only its SHA-256
    /// can tell.
    func corrupt(_ package: URL, entry: String) throws {
        let reader = try ArchiveReader(path: package.path)
        var entries: [(ArchiveEntryInfo, [UInt8])] = []
        while let info = try reader.nextEntry() {
            var bytes = try reader.readData(limit: 1 << 30)
            if info.path == entry, !bytes.isEmpty { bytes[0] ^= 0x20 }
            entries.append((info, bytes))
        }
        let copy = package.deletingLastPathComponent().appendingPathComponent("corrupt-\(UUID().uuidString).zip")
        let writer = try ArchiveWriter(path: copy.path)
        for (info, bytes) in entries {
            try writer.addEntry(ArchiveEntryHeader(path: info.path, size: Int64(bytes.count), compression: .store,
                                                   modificationTime: info.modificationTime, permissions: info.permissions),
                                bytes: bytes)
        }
        try writer.close()
        try FileManager.default.removeItem(at: package)
        try FileManager.default.moveItem(at: copy, to: package)
    }
}
