import FlowLiveProtocol
import FlowHTTP
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

extension LiveServer {
    /// `GET /v1/open?path=…&line=…&column=…`: runs the editor command (`EditorLinks.command`)
    /// for a project file, when the page's links are set to run one.
    public static let openPath = "/v1/open"

    /// The session page's state now (`GET /v1/session`, and the page's first paint).
    func sessionState() -> SessionState {
        let manifest = project.manifest
        return SessionState(
            project: .init(name: manifest.name, identifier: manifest.identifier, revision: manifest.revision),
            diagnostics: validation.diagnostics(for: manifest), programs: sessions.all)
    }

    func openInEditor(_ request: HTTPRequest) -> HTTPResponse {
        let given = request.query["path"] ?? ""
        // A project file, its links resolved: one pointing outside the project is not one.
        guard let path = paths.absolute(given), let real = Self.realPath(path),
            let realRoot = Self.realPath(paths.root),
            real.hasPrefix(realRoot + "/")
        else {
            return HTTPResponse.error(404, "'\(given)' is no file of the project")
        }
        let line = Int(request.query["line"] ?? "") ?? 1, column = Int(request.query["column"] ?? "") ?? 1
        guard line > 0, column > 0,
            let words = options.editor.commandWords(path: path, line: line, column: column)
        else {
            return HTTPResponse.error(
                404, "links open in the editor's own URL scheme: start serve with --editor COMMAND to run one")
        }
        if let problem = Self.spawnDetached(words) {
            return HTTPResponse.error(500, "cannot run \(words[0]): \(problem)")
        }
        log("opened \(LogText.escaped(paths.shown(path))):\(line):\(column) with \(LogText.escaped(words[0]))")
        return HTTPResponse(status: 204, contentType: "text/plain", body: .bytes([]))
    }

    /// `path` with every link resolved (`realpath(3)`), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Starts `words` (found on PATH, no shell) with no input, in a process group of its own
    /// that outlives serve (an editor it starts stays open), and reaps it when it ends; nil
    /// when it started, else why not.
    static func spawnDetached(_ words: [String]) -> String? {
        do {
            _ = try ChildProcess.start(
                ChildCommand(words[0], Array(words.dropFirst()), lifetime: .detached, searchesPath: true))
            return nil
        } catch {
            if case .cannotStart(_, let reason) = error { return reason }
            return "\(error)"
        }
    }
}
