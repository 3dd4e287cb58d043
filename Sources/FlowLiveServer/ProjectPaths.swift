import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the live server names a project file: relative to the folder it was started in, as
/// `validate` and `run` print it (`Hello/Sources/Main.lua`), and absolute in editor links.
///
/// A program may name a file relative to its own folder (`flowpkg run` does, as validate does)
/// or relative to the project (a device, whose live source names files so): both are found,
/// and only files inside the project are ever named.
public struct ProjectPaths: Sendable {
    /// The project folder, absolute, without a trailing slash.
    public let root: String
    /// The folder paths are shown relative to.
    public let workingDirectory: String

    public init(root: URL, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.root = Self.trimmed(root.standardizedFileURL.path)
        self.workingDirectory = Self.trimmed(URL(fileURLWithPath: workingDirectory).standardizedFileURL.path)
    }

    /// The absolute path of the project file `path` names (relative to the working directory,
    /// to the project, or absolute), or nil when it names no file inside the project.
    public func absolute(_ path: String) -> String? {
        guard !path.isEmpty else { return nil }
        let candidates =
            path.hasPrefix("/")
            ? [path] : [workingDirectory + "/" + path, root + "/" + path]
        for candidate in candidates {
            let standardized = URL(fileURLWithPath: candidate).standardizedFileURL.path
            guard standardized.hasPrefix(root + "/") else { continue }
            var isDirectory = false
            if FileManager.default.fileExists(atPath: standardized, isDirectory: &isDirectory), !isDirectory {
                return standardized
            }
        }
        return nil
    }

    /// `absolute` as a terminal shows it: relative to the working directory when inside it
    /// (or when the project holds the working directory, with `../`), else absolute.
    public func shown(_ absolute: String) -> String {
        guard absolute.hasPrefix("/") else { return absolute }
        if absolute.hasPrefix(workingDirectory + "/") { return String(absolute.dropFirst(workingDirectory.count + 1)) }
        if workingDirectory.hasPrefix(root + "/") { return PathText.relative(absolute, from: workingDirectory) }
        return absolute
    }

    /// `text` (a Lua error, a traceback) with every `FILE.lua:LINE` that names a project file
    /// written as `shown` names it, so the terminal and the page show one name for each file.
    ///
    /// One pass over the bytes, with at most `SessionEvent.maximumLocationCandidates` distinct
    /// paths asked of the file system: a token holder's 1 MB error full of `X.lua:1` must not
    /// cost seconds of the server's time (issue 38).
    public func rewritten(_ text: String) -> String {
        guard text.firstRange(of: ".lua:") != nil else { return text }
        let bytes = Array(text.utf8)
        let marker = Array(".lua:".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var resolved: [String: String?] = [:]
        var copied = 0, pathStart = 0, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if Self.endsPath(byte) {
                pathStart = index + 1
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "."), index + marker.count < bytes.count,
                bytes[index..<(index + marker.count)].elementsEqual(marker),
                bytes[index + marker.count] >= UInt8(ascii: "0"), bytes[index + marker.count] <= UInt8(ascii: "9")
            else {
                index += 1
                continue
            }
            let pathEnd = index + 4
            if pathEnd - pathStart <= SessionEvent.maximumPathBytes {
                let path = String(decoding: bytes[pathStart..<pathEnd], as: UTF8.self)
                if resolved[path] == nil, resolved.count < SessionEvent.maximumLocationCandidates {
                    resolved[path] = .some(absolute(path))
                }
                if let found = resolved[path], let absolute = found {
                    out += bytes[copied..<pathStart]
                    out += Array(shown(absolute).utf8)
                    copied = pathEnd
                }
            }
            index += marker.count
            pathStart = index
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The first `FILE.lua:LINE` in `text` that names a project file: its absolute path and line
    /// (searched as `SessionEvent.location` searches, within its bounds).
    public func location(in text: String) -> (path: String, line: Int)? {
        var found: String?
        let place = SessionEvent.location(in: text) { candidate in
            found = absolute(candidate)
            return found != nil
        }
        guard let place, let found else { return nil }
        return (found, place.line)
    }

    private static func endsPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "'"), UInt8(ascii: "\""),
            UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "<"):
            return true
        default:
            return false
        }
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
