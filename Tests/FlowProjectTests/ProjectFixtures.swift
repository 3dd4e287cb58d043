import FlowDiagnostics
import FlowTestSupport
import Foundation

/// The fixture projects under `Tests/Fixtures`, found from this file's path (not bundle
/// resources, so symbolic links in them stay links).
enum ProjectFixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").standardizedFileURL

    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// A fresh copy of a fixture in a temporary folder, for tests that add files to it.
    static func copy(_ relative: String) throws -> URL {
        let scratch = try Scratch("flowkit").url.standardizedFileURL
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let destination = scratch.appendingPathComponent(url(relative).lastPathComponent)
        try FileManager.default.copyItem(at: url(relative), to: destination)
        return destination
    }

    static func remove(_ copy: URL) {
        try? FileManager.default.removeItem(at: copy.deletingLastPathComponent())
    }
}

extension Diagnostic {
    /// `file` relative to `root`, as the tests state places.
    func place(relativeTo root: URL) -> String {
        var text = file.map { $0.hasPrefix(root.path + "/") ? String($0.dropFirst(root.path.count + 1)) : $0 } ?? "-"
        if let line { text += ":\(line)" }
        if let column { text += ":\(column)" }
        return text
    }
}
