import FlowDiagnostics
import FlowLiveProtocol
import FlowPackage
import FlowProject
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the session page shows, as `GET /v1/session` answers it.
struct SessionState: Encodable {
    struct ProjectSummary: Encodable {
        var name: String
        var identifier: String
        var revision: Int
    }

    struct DiagnosticRow: Encodable, Sendable {
        /// As a terminal shows it (`ProjectPaths.shown`), and absolute for links.
        var file: String?
        var path: String?
        /// Where a click on it goes: the developer's editor (`EditorLinks`).
        var link: String?
        var line: Int?
        var column: Int?
        var severity: String
        var code: String
        var message: String
    }

    var project: ProjectSummary
    var diagnostics: [DiagnosticRow]
    var programs: [ProgramSessions.Program]
}

/// `flowpkg validate`'s diagnostics for the project as it is now, worked out again only when
/// the served revision changed.
final class ValidationCache: Sendable {
    private let root: URL
    private let paths: ProjectPaths
    private let link: @Sendable (String, Int?, Int?) -> String
    private let cached = Locked<(revision: Int, rows: [SessionState.DiagnosticRow])?>(nil)

    init(root: URL, paths: ProjectPaths, link: @escaping @Sendable (String, Int?, Int?) -> String) {
        self.root = root
        self.paths = paths
        self.link = link
    }

    func diagnostics(revision: Int) -> [SessionState.DiagnosticRow] {
        if let cached = cached.withLock({ $0 }), cached.revision == revision { return cached.rows }
        let rows = Validator.validate(projectAt: root).diagnostics.map { d in
            let path = d.file.map { URL(fileURLWithPath: $0, relativeTo: root).standardizedFileURL.path }
            return SessionState.DiagnosticRow(
                file: path.map(paths.shown), path: path, link: path.map { link($0, d.line, d.column) }, line: d.line,
                column: d.column, severity: d.severity.rawValue, code: d.code.code, message: d.message)
        }
        cached.withLock { $0 = (revision, rows) }
        return rows
    }
}
