import FlowTestSupport
import Foundation
import Testing

/// A binary rock with a C library (`NAME-VERSION.ARCH.rock`, `.all.rock` too) is read by flowpkg
/// before luarocks unpacks anything of it into its tree (issue 43): refused by name, or locked as
/// the host's when its C module is, and never installed either way. luarocks runs through
/// `RockspecGateTests`' wrapper, which lists its tree after every run.
@Suite(.serialized) struct BinaryRockGateTests {
    /// `evil` 1.0-1 as a binary rock with its C module `evil.so`, named for `arch`.
    static func publish(_ project: RockBuildRefusalTests.Project, arch: String) throws {
        try project.server.publishBinary("evil", "1.0-1", module: "evil")
        guard arch == "all" else { return }
        let folder = project.server.folder
        let packed = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first {
                $0.hasPrefix("evil-1.0-1.") && $0.hasSuffix(".rock") && !$0.hasSuffix(".src.rock")
            })
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent(packed), to: folder.appendingPathComponent("evil-1.0-1.all.rock"))
        try project.server.makeManifest()
    }

    static func lock(_ project: RockBuildRefusalTests.Project) throws -> (FlowpkgProcess.Result, String) {
        let log = project.scratch.url.appendingPathComponent("trees.log")
        let luarocks = try RockspecGateTests.listingLuaRocks(in: project.scratch.url, log: log)
        let result = try DependenciesEndToEndTests.flowpkg(
            ["lock"], in: project.app, cache: project.cache, environment: ["FLOWPKG_LUAROCKS": luarocks.path])
        let trees = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(trees.contains("luarocks --lua-version 5.4"), "luarocks did not run through the wrapper")
        return (result, trees)
    }

    @Test(arguments: ["native", "all"])
    func aBinaryRockWithACLibraryIsRefusedBeforeItIsUnpacked(arch: String) throws {
        let project = try RockBuildRefusalTests.Project()
        defer { project.scratch.remove() }
        try Self.publish(project, arch: arch)
        let (result, trees) = try Self.lock(project)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let said = result.stdout + result.stderr
        #expect(said.contains("[FP808]") && said.contains("evil 1.0-1") && said.contains("'evil'"), "\(said)")
        #expect(!trees.contains("rocks-5.4/evil") && !trees.contains("evil.so"), "\(trees)")
        #expect(!FileManager.default.fileExists(atPath: project.app.appendingPathComponent("flowpkg.lock").path))
    }

    @Test(arguments: ["native", "all"])
    func theHostsBinaryRockIsLockedAsProvidedWithoutBeingUnpacked(arch: String) throws {
        let project = try RockBuildRefusalTests.Project()
        defer { project.scratch.remove() }
        try Self.publish(project, arch: arch)
        try Data(
            """
            {"name": "app", "identifier": "com.example.app", "version": "0.1.0", "startModule": "Main",
             "sources": ["Sources"], "resources": [], "environment": "lua", "externalModules": ["evil"],
             "rocksServers": ["rocks"], "dependencies": {"evil": ">= 1.0"}}

            """.utf8
        ).write(to: project.app.appendingPathComponent("flowpkg.json"))
        let (result, trees) = try Self.lock(project)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lock = try String(contentsOf: project.app.appendingPathComponent("flowpkg.lock"), encoding: .utf8)
        #expect(lock.contains("providedByHost") && lock.contains("\"evil\""), "\(lock)")
        #expect(!trees.contains("rocks-5.4/evil") && !trees.contains("evil.so"), "\(trees)")
    }
}
