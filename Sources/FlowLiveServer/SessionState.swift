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
        var file: String?
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
    private let cached = Locked<(revision: Int, rows: [SessionState.DiagnosticRow])?>(nil)

    init(root: URL) {
        self.root = root
    }

    func diagnostics(revision: Int) -> [SessionState.DiagnosticRow] {
        if let cached = cached.withLock({ $0 }), cached.revision == revision { return cached.rows }
        let base = root.standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        let rows = Validator.validate(projectAt: root).diagnostics.map { d in
            SessionState.DiagnosticRow(
                file: d.file.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }, line: d.line,
                column: d.column, severity: d.severity.rawValue, code: d.code, message: d.message)
        }
        cached.withLock { $0 = (revision, rows) }
        return rows
    }
}
