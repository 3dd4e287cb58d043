import FlowTestSupport
import FlowPackage
import Foundation

/// Real `.luapkg` files written by FlowPackage's writer, in a scratch folder per test.
struct TestPackages {
    let folder: URL

    init() throws {
        folder = try Scratch("loader").url
    }

    /// Writes a package named `file` from modules (relative path → code) and resources
    /// (relative path → bytes).
    @discardableResult
    func make(
        _ file: String, identifier: String = "com.example.app", start: String? = "main",
        modules: [String: String], resources: [String: [UInt8]] = [:]
    ) throws -> URL {
        try PackageFixtures.write(
            folder.appendingPathComponent(file), identifier: identifier, start: start, modules: modules,
            resources: resources)
    }

    /// Rewrites the package with `entry`'s bytes changed but its size kept.
    func corrupt(_ package: URL, entry: String) throws {
        try PackageSurgery.corrupt(package, entry: entry)
    }
}
