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
