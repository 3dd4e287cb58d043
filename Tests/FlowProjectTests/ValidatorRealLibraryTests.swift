import FlowProject
import Foundation
import Testing

/// Real libraries validate clean: Debian's lua-penlight, lua-dkjson and lua-inspect, copied
/// into a project's Sources/ (installed by `.ci/setup` with FLOWPKG_SETUP_TEST_TOOLS=1).
@Suite struct ValidatorRealLibraryTests {
    static let debianLua = "/usr/share/lua/5.1"
    static let libraries = ["pl", "dkjson.lua", "inspect.lua"]
    static var installed: Bool {
        libraries.allSatisfy { FileManager.default.fileExists(atPath: debianLua + "/" + $0) }
    }

    @Test(.enabled(if: installed, "needs Debian's lua-penlight, lua-dkjson and lua-inspect"))
    func debianLibrariesHaveNoErrors() throws {
        let project = try ProjectFixtures.copy("invalid/FP208")
        defer { ProjectFixtures.remove(project) }
        for library in Self.libraries {
            try FileManager.default.copyItem(
                atPath: Self.debianLua + "/" + library,
                toPath: project.appendingPathComponent("Sources/" + library).path)
        }
        let report = Validator.validate(projectAt: project)
        #expect(report.errorCount == 0, "\(report.diagnostics.filter { $0.severity == .error })")
        #expect(report.moduleCount > 20)
        #expect(report.project?.module(named: "pl.tablex")?.relativePath == "pl/tablex.lua")
        #expect(report.project?.module(named: "pl")?.relativePath == "pl/init.lua")
    }
}
