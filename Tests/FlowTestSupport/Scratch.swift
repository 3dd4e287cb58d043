import Foundation

/// A fresh folder of its own for one test, under the system's temporary folder: the one
/// scratch-folder helper every test target uses.
public struct Scratch: Sendable {
    /// The folder (its path resolved, so it compares equal to what a tool prints).
    public let url: URL

    /// Makes `flowpkg-LABEL-UUID` in the temporary folder.
    public init(_ label: String = "test") throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowpkg-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        url = made.resolvingSymlinksInPath()
    }

    /// The folder's path.
    public var path: String { url.path }

    /// `name` inside the folder (which need not exist).
    public func path(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `bytes` at `name`, creating the folders above it, and returns its URL.
    @discardableResult
    public func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let target = path(name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
        return target
    }

    /// Writes `text` as UTF-8 at `name`, creating the folders above it, and returns its URL.
    @discardableResult
    public func file(_ name: String, _ text: String) throws -> URL { try file(name, Array(text.utf8)) }

    /// Saves `text` at `name` as editors save: written whole beside it and renamed into place.
    /// A plain write truncates first, and on a loaded machine a watcher that wakes between the
    /// two sees an empty file saved.
    @discardableResult
    public func save(_ name: String, _ text: String) throws -> URL {
        let target = path(name)
        try Data(text.utf8).write(to: target, options: .atomic)
        return target
    }

    /// Makes the folder `name` (and those above it) and returns its URL.
    @discardableResult
    public func folder(_ name: String) throws -> URL {
        let target = path(name)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        return target
    }

    /// The names in the folder (or in `name` inside it), sorted.
    public func entries(_ name: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: name.isEmpty ? url.path : path(name).path).sorted()
    }

    /// The text of the file `name`.
    public func text(_ name: String) throws -> String { try String(contentsOf: path(name), encoding: .utf8) }

    /// Every path below the folder with each file's bytes (nil for a folder).
    public var tree: [String: Data?] {
        var result: [String: Data?] = [:]
        let base = url.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return result }
        while let relative = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory)
            result[relative] = isDirectory.boolValue ? nil : FileManager.default.contents(atPath: base + "/" + relative)
        }
        return result
    }

    /// Removes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}
