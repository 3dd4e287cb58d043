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

/// Writes a new project's files all at once: into a hidden folder beside the destination, then
/// renamed into place, so a failure at any point leaves no half-made project behind and an
/// existing folder with something in it is never touched.
public enum ProjectWriter {
    /// Throws unless `destination` is free for a new project: missing, or an empty folder.
    public static func checkDestination(_ destination: URL) throws(TemplateError) {
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: destination.path, isDirectory: &isDirectory) else {
            // A dangling symbolic link is "there" for rename(2) even though fileExists says no.
            if (try? manager.destinationOfSymbolicLink(atPath: destination.path)) != nil {
                throw .destinationNotAFolder(path: destination.path)
            }
            return
        }
        guard isDirectory else { throw .destinationNotAFolder(path: destination.path) }
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
        let target = destination.standardizedFileURL
        if FileManager.default.fileExists(atPath: target.path) {
            try fill(existing: target, with: files, shownAs: destination.path)
        } else {
            try create(target, with: files, shownAs: destination.path)
        }
    }

    /// A new folder: staged beside it and renamed into place in one step.
    private static func create(_ target: URL, with files: [RenderedFile], shownAs shown: String) throws(TemplateError) {
        let manager = FileManager.default
        let parent = target.deletingLastPathComponent()
        var createdParents: [URL] = []
        var staging: URL?
        do {
            createdParents = try createMissingFolders(parent)
            let hidden = try stage(files, in: parent, for: target.lastPathComponent)
            staging = hidden
            // rename(2) refuses to replace a folder that appeared and filled up meanwhile.
            try moveIntoPlace(hidden, to: target, shownAs: shown)
        } catch {
            if let staging { try? manager.removeItem(at: staging) }
            for folder in createdParents.reversed() { try? manager.removeItem(at: folder) }
            throw writeError(error, shownAs: shown)
        }
    }

    /// An empty folder that exists (perhaps the working directory): staged inside it, then each
    /// top-level entry moved up. The folder itself stays, so a shell sitting in it stays there.
    private static func fill(existing target: URL, with files: [RenderedFile], shownAs shown: String)
        throws(TemplateError)
    {
        let manager = FileManager.default
        var staging: URL?
        var moved: [URL] = []
        do {
            let hidden = try stage(files, in: target, for: target.lastPathComponent)
            staging = hidden
            let entries = try manager.contentsOfDirectory(atPath: hidden.path).sorted()
            for name in entries {
                let destination = target.appendingPathComponent(name)
                if manager.fileExists(atPath: destination.path) { throw TemplateError.destinationNotEmpty(path: shown) }
                try moveIntoPlace(hidden.appendingPathComponent(name), to: destination, shownAs: shown)
                moved.append(destination)
            }
            try manager.removeItem(at: hidden)
        } catch {
            for url in moved.reversed() { try? manager.removeItem(at: url) }
            if let staging { try? manager.removeItem(at: staging) }
            throw writeError(error, shownAs: shown)
        }
    }

    /// Writes every file into a new hidden folder inside `folder` and returns it; on failure the
    /// hidden folder is removed again.
    private static func stage(_ files: [RenderedFile], in folder: URL, for name: String) throws -> URL {
        let manager = FileManager.default
        let hidden = folder.appendingPathComponent(".\(name).flowpkg-new-\(UUID().uuidString.prefix(8))")
        try manager.createDirectory(at: hidden, withIntermediateDirectories: false)
        do {
            for file in files {
                let url = hidden.appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: url)
                if file.isExecutable { try makeExecutable(url) }
            }
        } catch {
            try? manager.removeItem(at: hidden)
            throw error
        }
        return hidden
    }

    /// Adds execute permission wherever the file is readable (`rw-r--r--` becomes `rwxr-xr-x`),
    /// so the user's umask still decides who may run it.
    private static func makeExecutable(_ url: URL) throws {
        let manager = FileManager.default
        let permissions = FileManager.posixPermissions(in: try manager.attributesOfItem(atPath: url.path)) ?? 0o644
        try manager.setAttributes(
            [.posixPermissions: permissions | ((permissions & 0o444) >> 2)], ofItemAtPath: url.path)
    }

    /// FlowSupport's `AtomicOutput.rename`, a folder that filled up meanwhile said as such.
    private static func moveIntoPlace(_ source: URL, to destination: URL, shownAs shown: String) throws {
        do {
            try AtomicOutput.rename(source.path, over: destination.path)
        } catch {
            if error.code == ENOTEMPTY || error.code == EEXIST { throw TemplateError.destinationNotEmpty(path: shown) }
            throw TemplateError.writeFailed(path: shown, reason: error.reason)
        }
    }

    private static func writeError(_ error: Error, shownAs shown: String) -> TemplateError {
        if let error = error as? TemplateError { return error }
        return .writeFailed(path: shown, reason: failureReason(error))
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
