import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a link to `file:line:column` on the session page goes (`serve --editor`, `dev
/// --editor`, or `FLOWPKG_EDITOR`): an editor's URL, or a command run on the machine where the
/// server runs.
public enum EditorLinks: Sendable, Equatable {
    /// A URL with `{path}`, `{line}` and `{column}` in it, filled in for each link.
    case url(String)
    /// A command run (without a shell) on the server's machine when the link is followed:
    /// its words with `{path}`, `{line}` and `{column}` filled in, or `PATH:LINE:COLUMN` added
    /// as its last word when it has none (what `code -g` takes).
    case command([String])

    /// `vscode://file/ABSOLUTE-PATH:LINE:COLUMN`.
    public static let vscode = EditorLinks.url("vscode://file{path}:{line}:{column}")
    /// JetBrains' IDEs.
    public static let idea = EditorLinks.url("idea://open?file={path}&line={line}&column={column}")

    /// Reads a setting: `vscode`, `idea`, a URL template (`SCHEME://…{path}…`), or a command
    /// (`code -g`, `nvim --server /tmp/nvim.sock --remote +{line} {path}`). Nil for an empty one.
    public init?(setting: String) {
        let trimmed = setting.trimmingSpaces()
        if trimmed.isEmpty { return nil }
        switch trimmed.lowercased() {
        case "vscode", "code": self = .vscode
        case "idea", "intellij", "jetbrains": self = .idea
        default:
            if let colon = trimmed.firstIndex(of: ":"), trimmed[colon...].hasPrefix("://"),
                // A Character, not a String: `contains(" ")` on a string is Foundation's
                // overload wherever Foundation is visible, and pulls it into the static binary.
                !trimmed[..<colon].contains(Character(" "))
            {
                self = .url(trimmed)
            } else {
                self = .command(trimmed.split(separator: " ").map(String.init))
            }
        }
    }

    /// The link for a place: the editor's URL, or the server's `/v1/open` address (which runs
    /// the command) carrying the page's token.
    public func href(path: String, line: Int?, column: Int?, token: String) -> String {
        switch self {
        case .url(let template):
            return Self.fill(template, path: Self.escapedForURL(path), line: line, column: column)
        case .command:
            let query = [
                "path=" + Self.escapedForURL(path, allowSlash: true), "line=\(line ?? 1)", "column=\(column ?? 1)",
                "token=" + Self.escapedForURL(token),
            ]
            return LiveServer.openPath + "?" + query.joined(separator: "&")
        }
    }

    /// The command's words for a place, when links run a command.
    public func commandWords(path: String, line: Int, column: Int) -> [String]? {
        guard case .command(let words) = self, !words.isEmpty else { return nil }
        let placeholders = ["{path}", "{line}", "{column}"]
        if words.contains(where: { word in placeholders.contains { word.firstRange(of: $0) != nil } }) {
            return words.map { Self.fill($0, path: path, line: line, column: column) }
        }
        return words + ["\(path):\(line):\(column)"]
    }

    private static func fill(_ template: String, path: String, line: Int?, column: Int?) -> String {
        template.replacingAll("{path}", with: path)
            .replacingAll("{line}", with: String(line ?? 1))
            .replacingAll("{column}", with: String(column ?? 1))
    }

    /// Percent-escapes what a URL cannot hold as it is; `/` stays (a path reads as one).
    static func escapedForURL(_ text: String, allowSlash: Bool = true) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            let plain =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "-._~".unicodeScalars.contains(scalar) || (allowSlash && byte == 0x2F)
            result += plain ? String(Character(scalar)) : String(printf: "%%%02X", byte)
        }
        return result
    }
}
