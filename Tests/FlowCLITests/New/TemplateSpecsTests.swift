import FlowTestSupport
import Foundation
import Testing

/// Each template's spec, through its README's flow: a new project's `flowpkg test` names the
/// command that adds luassert, `flowpkg add --dev luassert` (here from a local rocks server of
/// Debian's luassert and say), then `flowpkg test` passes and validate has nothing to say.
@Suite(.serialized) struct TemplateSpecsTests {
    @Test(arguments: [
        ("console-app", "spec/Banner_spec.lua", "2 successes / 0 failures / 0 errors / 0 pending"),
        ("lua-library", "spec/words_spec.lua", "2 successes / 0 failures / 0 errors / 0 pending"),
    ])
    func aNewProjectsSpecPasses(template: String, spec: String, counts: String) throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let environment = ["FLOWPKG_CACHE": scratch.url.appendingPathComponent("cache").path]
        let made = try FlowpkgProcess.run(["new", "app", "--template", template], in: scratch.url)
        #expect(made.status == 0, "\(made.stderr)")
        let folder = scratch.url.appendingPathComponent("app")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(spec).path))
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("flowpkg add --dev luassert") && readme.contains("flowpkg test"))

        let without = try FlowpkgProcess.run(["test"], in: folder, environment: environment)
        #expect(without.status == 1)
        let errors = without.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1 && errors.first?.hasSuffix("add it with: flowpkg add --dev luassert") == true)

        let server = try LocalRocksServer(in: scratch.url)
        try server.publishAssertions()
        let added = try FlowpkgProcess.run(
            ["add", "--dev", "luassert", "--rocks-server", server.folder.path], in: folder, environment: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let tested = try FlowpkgProcess.run(["test"], in: folder, environment: environment)
        #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
        #expect(tested.stdout.contains(counts), "\(tested.stdout)")
        let validated = try FlowpkgProcess.run(["validate"], in: folder, environment: environment)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        #expect(!validated.stdout.contains("spec/") && !validated.stderr.contains("spec/"), "\(validated.stdout)")
    }
}
