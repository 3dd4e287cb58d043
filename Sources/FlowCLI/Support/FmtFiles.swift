import ArgumentParser
import FlowFormat
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The files `flowpkg fmt` works on: those named, the project's, or those git sees changed.
enum FmtFiles {
    static func resolve(paths: [String], changed: Bool) throws -> [String] {
        let workingDirectory = FileManager.default.currentDirectoryPath
        let search = FormatFiles(root: workingDirectory)
        var named = paths
        var ref = "HEAD"
        if changed, let first = named.first, !FileManager.default.fileExists(atPath: first) {
            ref = first
            named.removeFirst()
        }
        if named.isEmpty {
            named = [ProjectLocation.nearestProject(from: workingDirectory) ?? "."]
            if named == [workingDirectory] { named = ["."] }
        }
        let files = search.files(in: named)
        guard changed else { return files }
        let changedFiles = try gitChanges(against: ref, in: workingDirectory)
        return files.filter { changedFiles.contains(absolute($0, workingDirectory)) }
    }

    static func absolute(_ path: String, _ workingDirectory: String) -> String {
        let full = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }

    /// Absolute paths of the files changed against `ref` and of untracked files, by git.
    static func gitChanges(against ref: String, in folder: String) throws -> Set<String> {
        guard let git = ChildCommand.find("git") else {
            throw ValidationError("--changed needs git, which is not on the PATH")
        }
        let top = try runGit(git, ["-C", folder, "rev-parse", "--show-toplevel"])
        guard top.succeeded else { throw ValidationError("--changed: not in a git repository (\(folder))") }
        let root = top.standardOutput.trimmingSpaces().replacingAll("\n", with: "")
        let diff = try runGit(git, ["-C", root, "diff", "--name-only", "--diff-filter=ACMR", ref, "--"])
        guard diff.succeeded else {
            throw ValidationError("--changed: git diff against '\(ref)' failed: \(diff.standardError.trimmingSpaces())")
        }
        let untracked = try runGit(git, ["-C", root, "ls-files", "--others", "--exclude-standard"])
        let names = (diff.standardOutput + "\n" + untracked.standardOutput).split(separator: "\n")
        return Set(names.map { URL(fileURLWithPath: root + "/" + $0).standardizedFileURL.path })
    }

    /// git run to completion by the one runner, within a minute.
    private static func runGit(_ git: String, _ arguments: [String]) throws -> ChildOutput {
        do {
            return try ChildProcess.run(ChildCommand(git, arguments), deadline: 60)
        } catch {
            throw ValidationError("--changed: \(error)")
        }
    }
}
