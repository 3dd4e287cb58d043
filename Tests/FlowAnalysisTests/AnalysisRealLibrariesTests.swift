import FlowTestSupport
import Foundation
import Testing

/// Debian's penlight, dkjson and inspect, copied into a project's `Sources/`, must give no
/// error: their lazy and protected requires of optional modules are warnings at most.
@Suite struct AnalysisRealLibrariesTests {
    @Test func debianLibrariesHaveNoErrors() throws {
        let fileManager = FileManager.default
        let project = try Scratch("libraries").url
        let sources = project.appendingPathComponent("Sources")
        defer { try? fileManager.removeItem(at: project) }
        try fileManager.createDirectory(at: sources, withIntermediateDirectories: true)
        let installed = URL(fileURLWithPath: "/usr/share/lua/5.1")
        try fileManager.copyItem(at: installed.appendingPathComponent("pl"), to: sources.appendingPathComponent("pl"))
        for file in ["dkjson.lua", "inspect.lua"] {
            try fileManager.copyItem(
                at: installed.appendingPathComponent(file), to: sources.appendingPathComponent(file))
        }

        let analysed = try AnalysisProject(folder: project)
        #expect(analysed.unparsed.isEmpty)
        #expect(analysed.moduleNames.contains { $0.rawValue == "pl.utils" })
        #expect(analysed.moduleNames.contains { $0.rawValue == "pl" })
        #expect(analysed.modules.count >= 30)
        let errors = analysed.check().filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map { "\($0.file!):\($0.line ?? 0): \($0.message) [\($0.code)]" })")
    }
}
