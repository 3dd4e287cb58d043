import FlowPackage
import Foundation

/// Real `.luapkg` files written by FlowPackage's writer, and entries added behind the
/// manifest's back, for tests that must see them served or refused.
public enum PackageFixtures {
    /// Writes a package at `output` from modules (relative path under Sources → code) and
    /// resources (relative path → bytes), with the writer flowpkg export uses.
    @discardableResult
    public static func write(
        _ output: URL, identifier: String = "com.example.app", start: String? = "main",
        modules: [String: String], resources: [String: [UInt8]] = [:],
        externalModules: [String] = []
    ) throws -> URL {
        let inputs = output.deletingLastPathComponent().appendingPathComponent("inputs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: inputs) }
        var moduleInputs: [PackageInput.Module] = []
        for (path, code) in modules.sorted(by: { $0.key < $1.key }) {
            let url = inputs.appendingPathComponent("Sources/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(code.utf8).write(to: url)
            var name = String(path.dropLast(".lua".count))
            if name.hasSuffix("/init") { name = String(name.dropLast("/init".count)) }
            moduleInputs.append(
                .init(
                    name: try ModuleName(name.replacingOccurrences(of: "/", with: ".")), relativePath: path, file: url))
        }
        var resourceInputs: [PackageInput.Resource] = []
        for (path, bytes) in resources.sorted(by: { $0.key < $1.key }) {
            let url = inputs.appendingPathComponent("Resources/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            resourceInputs.append(.init(key: try ResourceKey(relativePath: path), file: url))
        }
        let input = PackageInput(
            identifier: try PackageIdentifier(identifier), name: "Test", version: "1.0.0",
            startModule: try start.map { try ModuleName($0) }, modules: moduleInputs,
            resources: resourceInputs, externalModules: externalModules)
        try PackageWriter.write(input, to: output)
        return output
    }
}

extension PackageSurgery {
    /// Rewrites the package with its entries changed by `change` (which may add, drop or
    /// repeat entries), each stored uncompressed, the manifest left as it was.
    public static func rewrite(_ package: URL, _ change: (inout [(path: String, bytes: [UInt8])]) -> Void) throws {
        let reader = try ArchiveReader(path: package.path)
        var entries: [(path: String, bytes: [UInt8])] = []
        while let info = try reader.nextEntry() {
            entries.append((info.path, try reader.readData(limit: 1 << 30)))
        }
        change(&entries)
        let copy = package.deletingLastPathComponent().appendingPathComponent("rewritten-\(UUID().uuidString).zip")
        let writer = try ArchiveWriter(path: copy.path)
        for entry in entries {
            try writer.addEntry(
                ArchiveEntryHeader(
                    path: entry.path, size: Int64(entry.bytes.count), compression: .store,
                    modificationTime: 0, permissions: 0o644),
                bytes: entry.bytes)
        }
        try writer.close()
        try FileManager.default.removeItem(at: package)
        try FileManager.default.moveItem(at: copy, to: package)
    }
}
