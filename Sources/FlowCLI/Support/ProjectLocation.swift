#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// The project a command works on: the folder the user named, or else, as cargo and SwiftPM
/// do, the first folder holding flowpkg.json from the current folder upward.
struct ProjectLocation: Equatable {
    /// The project folder (or, when nothing was found, the current folder, whose missing
    /// flowpkg.json the command then reports).
    var url: URL
    /// The project folder when it was found above the current folder: paths inside it are
    /// shown relative to the current folder with `../`.
    var above: String?

    static let projectFileName = "flowpkg.json"

    /// `given` as the user wrote it, or the nearest project from `workingDirectory` upward.
    static func resolve(_ given: String?, workingDirectory: String = Terminal.workingDirectory) -> ProjectLocation {
        if let given { return ProjectLocation(url: URL(fileURLWithPath: given), above: nil) }
        guard let found = nearestProject(from: workingDirectory) else {
            return ProjectLocation(url: URL(fileURLWithPath: workingDirectory), above: nil)
        }
        return ProjectLocation(url: URL(fileURLWithPath: found), above: found == workingDirectory ? nil : found)
    }

    /// The first folder from `start` upward (`start` included) that holds flowpkg.json.
    static func nearestProject(from start: String) -> String? {
        var folder = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            var isDirectory = false
            let candidate = folder.appendingPathComponent(projectFileName).path
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory {
                return folder.path
            }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if parent.path == folder.path || folder.path == "/" { return nil }
            folder = parent
        }
    }
}
