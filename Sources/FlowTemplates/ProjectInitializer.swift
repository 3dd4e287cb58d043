#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `flowpkg init`: a project made in a folder that already has things in it (a git
/// repository, a README), writing only the template's files that are missing and never
/// replacing a file that is there.
public struct ProjectInitializer: Sendable {
    public var template: Template
    public var folder: URL
    public var values: TemplateValues
    /// The template's files, rendered.
    public var files: [RenderedFile]

    /// What `write()` did: paths relative to the folder, sorted.
    public struct Outcome: Sendable, Equatable {
        /// Files written, missing before.
        public var written: [String]
        /// Files the template has that were there already and were left as they were.
        public var kept: [String]
    }

    /// Works out the files `template` gives `folder` (which may be missing, empty or not);
    /// refuses a folder that already holds a flowpkg.json. Nothing is written.
    public static func plan(template: Template, folder: URL, given: [String: String]) throws(TemplateError)
        -> ProjectInitializer
    {
        let manager = FileManager.default
        var isDirectory = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory {
            throw .destinationNotAFolder(path: folder.path)
        }
        if manager.fileExists(atPath: folder.appendingPathComponent("flowpkg.json").path)
            || (try? manager.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("flowpkg.json").path))
                != nil
        {
            throw .alreadyAProject(path: folder.path)
        }
        let values = try TemplateValues.resolve(template: template, destination: folder, given: given)
        let files = try TemplateRenderer.render(template, context: values.renderingContext(for: template))
        return ProjectInitializer(template: template, folder: folder, values: values, files: files)
    }

    /// What `write()` would do, read from the folder as it is now.
    public func preview() throws(TemplateError) -> Outcome {
        try checkFolders()
        let manager = FileManager.default
        var outcome = Outcome(written: [], kept: [])
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            let there =
                manager.fileExists(atPath: url.path)
                || (try? manager.destinationOfSymbolicLink(atPath: url.path)) != nil
            if there { outcome.kept.append(file.path) } else { outcome.written.append(file.path) }
        }
        return outcome
    }

    /// Writes every missing file. Each one is written beside its place and linked in with
    /// link(2), which never replaces anything: a file that appears meanwhile is kept too.
    /// The folders needed are checked first, so a file standing where a folder must go stops
    /// everything before anything is written.
    public func write() throws(TemplateError) -> Outcome {
        try checkFolders()
        let manager = FileManager.default
        var outcome = Outcome(written: [], kept: [])
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            do {
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                let staged = url.deletingLastPathComponent()
                    .appendingPathComponent(".\(url.lastPathComponent).flowpkg-init-\(UUID().uuidString.prefix(8))")
                try Data(file.bytes).write(to: staged)
                defer { unlink(staged.path) }
                if file.isExecutable {
                    let permissions =
                        FileManager.posixPermissions(in: try manager.attributesOfItem(atPath: staged.path)) ?? 0o644
                    try manager.setAttributes(
                        [.posixPermissions: permissions | ((permissions & 0o444) >> 2)],
                        ofItemAtPath: staged.path)
                }
                if link(staged.path, url.path) == 0 {
                    outcome.written.append(file.path)
                } else if errno == EEXIST {
                    outcome.kept.append(file.path)
                } else {
                    throw TemplateError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
                }
            } catch let error as TemplateError {
                throw error
            } catch {
                throw .writeFailed(path: url.path, reason: failureReason(error))
            }
        }
        return outcome
    }

    /// Every folder a file needs must be a folder or missing.
    private func checkFolders() throws(TemplateError) {
        let manager = FileManager.default
        for file in files {
            var parts = file.path.split(separator: "/").dropLast()
            var current = folder
            while let part = parts.first {
                parts = parts.dropFirst()
                current = current.appendingPathComponent(String(part))
                if let target = try? manager.destinationOfSymbolicLink(atPath: current.path) {
                    throw .linkedFolder(
                        path: file.path, link: String(current.path.dropFirst(folder.path.count + 1)), target: target)
                }
                var isDirectory = false
                if manager.fileExists(atPath: current.path, isDirectory: &isDirectory), !isDirectory {
                    throw .pathBlocked(path: file.path, by: String(current.path.dropFirst(folder.path.count + 1)))
                }
            }
        }
    }
}
