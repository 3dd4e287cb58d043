import FlowTestSupport
import Foundation
import Testing

/// A rock that installs anything but Lua modules is refused BEFORE luarocks builds or copies
/// anything of it (issue 43, HIGH 1): flowpkg reads its rockspec first, through its sandbox.
/// luarocks runs here through a wrapper that lists its tree after every run, so anything it
/// installed, even into flowpkg's scratch folder, shows.
@Suite(.serialized) struct RockspecGateTests {
    /// A `luarocks` that notes its command line in `log`, runs the real one, then appends every
    /// path of its `--tree` (when luarocks made one) to `log`.
    static func listingLuaRocks(in folder: URL, log: URL) throws -> URL {
        let real = try #require(
            ["/usr/bin/luarocks", "/usr/local/bin/luarocks"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let script = folder.appendingPathComponent("luarocks-listing")
        try Data(
            """
            #!/bin/bash
            echo "luarocks $*" >> '\(log.path)'
            \(real) "$@"; status=$?
            previous=""; tree=""
            for argument in "$@"; do [ "$previous" = "--tree" ] && tree="$argument"; previous="$argument"; done
            [ -n "$tree" ] && [ -d "$tree" ] && find "$tree" >> '\(log.path)'
            exit $status

            """.utf8
        ).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    @Test func aRockInstallingNonLuaFilesIsRefusedBeforeLuaRocksInstallsIt() throws {
        let project = try RockBuildRefusalTests.Project()
        defer { project.scratch.remove() }
        let log = project.scratch.url.appendingPathComponent("trees.log")
        let luarocks = try Self.listingLuaRocks(in: project.scratch.url, log: log)
        let platformBuild =
            #"{ type = "builtin", modules = { evil = "evil.lua" }, "#
            + #"platforms = { unix = { install = { bin = { "tool" } } } } }"#
        let builds = RockBuildRefusalTests.nonLuaBuilds + [("build.platforms.unix.install.bin", platformBuild)]
        for (named, build) in builds {
            try project.server.publishSource("evil", "1.0-1", build: build, files: RockBuildRefusalTests.nonLuaFiles)
            try? FileManager.default.removeItem(at: project.cache)
            try? FileManager.default.removeItem(at: log)
            let result = try DependenciesEndToEndTests.flowpkg(
                ["lock"], in: project.app, cache: project.cache, environment: ["FLOWPKG_LUAROCKS": luarocks.path])
            #expect(result.status == 1, "\(named): \(result.stdout)\(result.stderr)")
            let said = result.stdout + result.stderr
            #expect(said.contains("[FP817]") && said.contains(named), "\(named): \(said)")
            // luarocks ran (and read the rock's rockspec), yet nothing of the rock ever reached its tree.
            let trees = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            #expect(trees.contains("luarocks --lua-version 5.4"), "\(named): luarocks did not run through the wrapper")
            #expect(!trees.contains("rocks-5.4/evil") && !trees.contains("/bin/tool"), "\(named): \(trees)")
        }
    }

    /// A plain Lua rock still locks: its rockspec is read, accepted, then built.
    @Test func aPlainRockIsReadThenBuilt() throws {
        let project = try RockBuildRefusalTests.Project()
        defer { project.scratch.remove() }
        try project.server.publishSource(
            "evil", "1.0-1", build: #"{ type = "builtin", modules = { evil = "evil.lua" } }"#,
            files: ["evil.lua": "return { word = 'plain' }\n"])
        let result = try project.flowpkg(["lock"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let run = try project.flowpkg(["run", "."])
        #expect(run.stdout.contains("plain"), "\(run.stdout)\(run.stderr)")
    }
}
