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
        if workingDirectory.hasPrefix(root + "/") {
            let target = absolute.split(separator: "/"), base = workingDirectory.split(separator: "/")
            var common = 0
            while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
            return (Array(repeating: "..", count: base.count - common) + target[common...].map(String.init))
                .joined(separator: "/")
        }
        return absolute
    }

    /// `text` (a Lua error, a traceback) with every `FILE.lua:LINE` that names a project file
    /// written as `shown` names it, so the terminal and the page show one name for each file.
    public func rewritten(_ text: String) -> String {
        guard text.contains(".lua:") else { return text }
        var result = ""
        var rest = text[...]
        while let range = rest.firstRange(of: ".lua:") {
            var start = range.lowerBound
            while start > rest.startIndex, !Self.endsPath(rest[rest.index(before: start)]) {
                start = rest.index(before: start)
            }
            let path = String(rest[start..<rest.index(range.lowerBound, offsetBy: 4)])
            let hasLine = rest[range.upperBound...].first?.isNumber ?? false
            result += rest[..<start]
            if hasLine, let absolute = absolute(path) {
                result += shown(absolute)
            } else {
                result += path
            }
            result += ":"
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// The first `FILE.lua:LINE` in `text` that names a project file: its absolute path and line.
    public func location(in text: String) -> (path: String, line: Int)? {
        var rest = text[...]
        while let range = rest.firstRange(of: ".lua:") {
            defer { rest = rest[range.upperBound...] }
            var start = range.lowerBound
            while start > rest.startIndex, !Self.endsPath(rest[rest.index(before: start)]) {
                start = rest.index(before: start)
            }
            let digits = rest[range.upperBound...].prefix(while: \.isNumber)
            guard !digits.isEmpty, let line = Int(digits) else { continue }
            if let absolute = absolute(String(rest[start..<rest.index(range.lowerBound, offsetBy: 4)])) {
                return (absolute, line)
            }
        }
        return nil
    }

    private static func endsPath(_ character: Character) -> Bool {
        " \t\n'\"[(<".contains(character)
    }

    private static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
