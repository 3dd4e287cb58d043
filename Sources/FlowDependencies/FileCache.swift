import FlowPackage
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// flowpkg's cache of dependency files, each kept under its own SHA-256
/// (`files/ab/abcdef…`), so a locked file is found by the hash the lock pins and checked
/// against it whenever it is read. `FLOWPKG_CACHE` names another folder.
public struct FileCache: Sendable {
    public var root: String

    public init(root: String) { self.root = root }

    /// `$FLOWPKG_CACHE`, else `$XDG_CACHE_HOME/flowpkg`, else `~/.cache/flowpkg`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> FileCache {
        if let root = environment["FLOWPKG_CACHE"], !root.isEmpty { return FileCache(root: root) }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return FileCache(root: xdg + "/flowpkg") }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return FileCache(root: home + "/.cache/flowpkg")
    }

    /// The SHA-256 of the file at `path` (FlowPackage's digest), its failure as `.io`.
    public static func sha256(ofFileAt path: String) throws(DependencyError) -> String {
        do {
            return try SHA256.hexOfFile(at: path).sha256
        } catch {
            throw .io(path: path, reason: "it cannot be read")
        }
    }

    /// Where the file with `sha256` is kept.
    public func path(for sha256: String) -> String {
        root + "/files/" + sha256.prefix(2) + "/" + sha256
    }

    /// Keeps `bytes`, returning their SHA-256.
    @discardableResult
    public func store(_ bytes: [UInt8]) throws(DependencyError) -> String {
        let sha = SHA256.hex(of: bytes)
        let target = path(for: sha)
        if FileManager.default.fileExists(atPath: target) { return sha }
        do {
            try AtomicOutput.write(bytes, to: target, creatingFolders: true)
        } catch {
            throw .io(error)
        }
        return sha
    }

    /// The bytes of the file with `sha256`, checked against it; nil when the cache lacks it.
    /// A `sha256` that is not 64 hex digits is refused before it becomes a path: a lock's
    /// hash must never name a file outside the cache.
    public func checkedContents(of sha256: String) throws(DependencyError) -> [UInt8]? {
        guard ManifestRules.isSHA256(sha256) else {
            throw .lockOutOfDate(reason: "'\(sha256)' is not a SHA-256 (64 hex digits) and names no file")
        }
        let file = path(for: sha256)
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let bytes = [UInt8](data)
        let actual = SHA256.hex(of: bytes)
        guard actual == sha256 else { throw .hashMismatch(file: file, expected: sha256, actual: actual) }
        return bytes
    }

    /// A readable copy of the locked file with `sha256`, named as the dependency names it:
    /// `sources/penlight-1.13.1-1-3f2a9c1b/pl/pretty.lua` (the tag, from the rock's or package's
    /// SHA-256, keeps two builds of one version apart). Editors open it and messages name it;
    /// it is made again from the checked file whenever its bytes differ, and is read-only.
    /// Nil when the cache lacks the file; the hash-addressed file when no copy can be written.
    public func readableCopy(of sha256: String, dependency: String, version: String, tag: String, path: String)
        throws(DependencyError) -> String?
    {
        guard let bytes = try checkedContents(of: sha256) else { return nil }
        if let problem = LockedModule.pathProblem(path) ?? LockedModule.pathProblem(dependency + "-" + version) {
            throw .lockOutOfDate(reason: "flowpkg.lock names the file '\(path)' of '\(dependency)': \(problem)")
        }
        let target = root + "/sources/" + dependency + "-" + version + "-" + tag.prefix(8) + "/" + path
        if let data = FileManager.default.contents(atPath: target), [UInt8](data) == bytes { return target }
        do {
            try AtomicOutput.write(bytes, to: target, creatingFolders: true)
        } catch {
            // A cache that can be read but not written (a shared, read-only one): the checked file itself.
            return self.path(for: sha256)
        }
        chmod(target, 0o444)
        return target
    }
}
