import FlowTestSupport
import FlowPackage
import Foundation

/// Projects and packages for the `flowpkg run` tests, in a scratch folder.
struct RunFixture {
    let scratch: Scratch
    var url: URL { scratch.url }

    init() throws { scratch = try Scratch("cli") }

    /// Writes a project folder `name` with `modules` (paths under Sources/) and `resources`.
    @discardableResult
    func project(
        _ name: String, identifier: String = "com.example.app", start: String? = "main",
        modules: [String: String], resources: [String: String] = [:]
    ) throws -> URL {
        let root = url.appendingPathComponent(name)
        var fields = [
            "\"name\": \"Demo\"", "\"identifier\": \"\(identifier)\"", "\"version\": \"1.0.0\"",
            "\"sources\": [\"Sources\"]",
        ]
        if let start { fields.append("\"startModule\": \"\(start)\"") }
        if !resources.isEmpty { fields.append("\"resources\": [\"Resources\"]") }
        try write(root.appendingPathComponent("flowpkg.json"), "{" + fields.joined(separator: ", ") + "}\n")
        for (path, code) in modules { try write(root.appendingPathComponent("Sources/" + path), code) }
        for (path, text) in resources { try write(root.appendingPathComponent("Resources/" + path), text) }
        return root
    }

    /// Exports the project at `root` to `output` with `flowpkg export`, as a user would.
    @discardableResult
    func package(_ root: URL, to output: String) throws -> URL {
        let target = url.appendingPathComponent(output)
        let result = try FlowpkgProcess.run(["export", root.path, "-o", target.path], in: url)
        guard result.status == 0 else {
            throw FixtureError(message: "export failed:\n\(result.stderr)\(result.stdout)")
        }
        return target
    }

    /// Rewrites the package with `entry`'s bytes changed but its size kept: only its SHA-256
    /// can tell.
    func corrupt(_ package: URL, entry: String) throws {
        guard try PackageSurgery.corrupt(package, entry: entry) else {
            throw FixtureError(message: "no entry \(entry) in \(package.path)")
        }
    }

    func write(_ file: URL, _ text: String) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// The run's visible outcome with the scratch path written `$TMP`, for golden files.
    func transcript(_ result: FlowpkgProcess.Result) -> String {
        TemplateGolden.transcript(result).replacingOccurrences(of: url.path, with: "$TMP")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
