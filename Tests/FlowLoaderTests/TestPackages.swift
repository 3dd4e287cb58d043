import FlowTestSupport
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
    func make(
        _ file: String, identifier: String = "com.example.app", start: String? = "main",
        modules: [String: String], resources: [String: [UInt8]] = [:]
    ) throws -> URL {
        let inputs = folder.appendingPathComponent("inputs-\(UUID().uuidString)")
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
            startModule: try start.map { try ModuleName($0) }, modules: moduleInputs, resources: resourceInputs)
        let output = folder.appendingPathComponent(file)
        try PackageWriter.write(input, to: output)
        return output
    }

    /// Rewrites the package with `entry`'s bytes changed but its size kept.
    func corrupt(_ package: URL, entry: String) throws {
        try PackageSurgery.corrupt(package, entry: entry)
    }
}
