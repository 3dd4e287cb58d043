import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a new project's files all at once: into a hidden folder beside the destination, then
/// renamed into place, so a failure at any point leaves no half-made project behind and an
/// existing folder with something in it is never touched.
public enum ProjectWriter {
    /// Throws unless `destination` is free for a new project: missing, or an empty folder.
    public static func checkDestination(_ destination: URL) throws(TemplateError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: destination.path, isDirectory: &isDirectory) else {
            // A dangling symbolic link is "there" for rename(2) even though fileExists says no.
            if (try? manager.destinationOfSymbolicLink(atPath: destination.path)) != nil {
                throw .destinationNotAFolder(path: destination.path)
            }
            return
        }
        guard isDirectory.boolValue else { throw .destinationNotAFolder(path: destination.path) }
        let contents: [String]
        do {
            contents = try manager.contentsOfDirectory(atPath: destination.path)
        } catch {
            throw .writeFailed(path: destination.path, reason: "its contents cannot be listed")
        }
        if !contents.isEmpty { throw .destinationNotEmpty(path: destination.path) }
    }

    /// Writes `files` as the new folder `destination` (which may exist if it is empty).
    public static func write(_ files: [RenderedFile], to destination: URL) throws(TemplateError) {
        try checkDestination(destination)
        let manager = FileManager.default
        let target = destination.standardizedFileURL
        let parent = target.deletingLastPathComponent()
        var createdParents: [URL] = []
        var staging: URL?
        do {
            createdParents = try createMissingFolders(parent)
            let hidden = parent.appendingPathComponent(".\(target.lastPathComponent).flowpkg-new-\(UUID().uuidString.prefix(8))")
            try manager.createDirectory(at: hidden, withIntermediateDirectories: false)
            staging = hidden
            for file in files {
                let url = hidden.appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url)
            }
            // rename(2) replaces an empty folder in one step and refuses a non-empty one, so a
            // folder that filled up since the check above is still left alone.
            if rename(hidden.path, target.path) != 0 {
                let code = errno
                if code == ENOTEMPTY || code == EEXIST { throw TemplateError.destinationNotEmpty(path: destination.path) }
                throw TemplateError.writeFailed(path: destination.path, reason: String(cString: strerror(code)))
            }
        } catch {
            if let staging { try? manager.removeItem(at: staging) }
            for folder in createdParents.reversed() { try? manager.removeItem(at: folder) }
            if let error = error as? TemplateError { throw error }
            throw .writeFailed(path: destination.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Creates `folder` and its missing ancestors, returning the ones it created, outermost first.
    private static func createMissingFolders(_ folder: URL) throws -> [URL] {
        var missing: [URL] = []
        var current = folder
        while !FileManager.default.fileExists(atPath: current.path), current.path != "/" {
            missing.insert(current, at: 0)
            current = current.deletingLastPathComponent()
        }
        for url in missing {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
        return missing
    }
}
