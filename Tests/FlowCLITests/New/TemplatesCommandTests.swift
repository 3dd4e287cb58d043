import FlowTestSupport
import Foundation
import Testing

/// Golden files for the template commands: `Golden/<name>.txt`, re-recorded with RECORD_SNAPSHOTS=1.
enum TemplateGolden {
    static let folder = CLITestFolder.url.appendingPathComponent("Golden")

    /// The whole visible outcome of a run, in one text.
    static func transcript(_ result: FlowpkgProcess.Result) -> String {
        "status: \(result.status)\n--- stdout\n\(result.stdout)--- stderr\n\(result.stderr)"
    }

    static func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "no golden file \(url.lastPathComponent); run with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "output differs from \(url.lastPathComponent)", sourceLocation: sourceLocation)
    }
}

@Suite struct TemplatesCommandTests {
    @Test func listsTheTemplatesAsText() throws {
        let result = try FlowpkgProcess.run(["templates"])
        #expect(result.status == 0)
        try TemplateGolden.check("templates", TemplateGolden.transcript(result))
    }

    @Test func listsTheTemplatesAsJSON() throws {
        let result = try FlowpkgProcess.run(["templates", "--format", "json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let templates = object?["templates"] as? [[String: Any]] ?? []
        #expect(templates.compactMap { $0["name"] as? String } == ["console-app", "empty-ios-app", "lua-library"])
        #expect(templates.allSatisfy { $0["description"] is String && $0["variables"] is [Any] })
        try TemplateGolden.check("templates-json", TemplateGolden.transcript(result))
    }

    /// The templates are compiled in: a copy of the binary alone in a folder still has them.
    @Test func anInstalledCopyOfTheBinaryHasItsTemplates() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let bin = scratch.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = bin.appendingPathComponent("flowpkg")
        try FileManager.default.copyItem(at: FlowpkgProcess.executable, to: copy)
        let process = Process()
        process.executableURL = copy
        process.arguments = ["new", "Copied", "--template", "empty-ios-app"]
        process.currentDirectoryURL = scratch.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            FileManager.default.fileExists(
                atPath: scratch.url.appendingPathComponent("Copied/Host/AppDelegate.swift").path))
    }
}
