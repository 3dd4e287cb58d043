import FlowTestSupport
import Foundation
import Testing

/// `flowpkg init --rocks-server DIR` answers the requires a tree leaves unanswered from the rocks
/// on the server (issue 46): a server's manifest lists rocks, not modules, so the rocks' own
/// files say which modules each provides, read once and kept in the cache.
@Suite(.serialized) struct InitRockHintsTests {
    @Test func plRequiresAreAnsweredWithThePenlightRock() throws {
        let scratch = try Scratch("init-rocks")
        defer { scratch.remove() }
        let server = try LocalRocksServer(in: scratch.url)
        let module = { (path: String) in (path: path, contents: Data("return { name = '\(path)' }\n".utf8)) }
        try server.publishPure(
            "penlight", "1.14.0-1",
            modules: ["pl.pretty": module("lua/pl/pretty.lua"), "pl.utils": module("lua/pl/utils.lua")])
        let tree = try scratch.folder("tree")
        try scratch.file(
            "tree/main.lua",
            "local pretty = require('pl.pretty')\nlocal List = require 'pl.List'\nlocal x = require('nothere.x')\n"
                + "print(pretty, List, x)\n")
        let cache = scratch.path("cache")
        var result = try DependenciesEndToEndTests.flowpkg(
            ["init", "--dry-run", "--rocks-server", "../rocks"], in: tree, cache: cache)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "requires pl.List, pl.pretty: the penlight rock provides these: flowpkg add penlight"),
            "\(result.stdout)")
        #expect(
            result.stdout.contains("requires nothere.x: no module of the tree, nor any rock on ../rocks"),
            "\(result.stdout)")
        // The rock's modules were read once and kept.
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("modules").path)
        #expect(kept.count == 1)

        // A rock published since is found at the next look; flowpkg.json lists the server, so
        // the hint's command works as it is printed.
        try server.publishPure("nothere", "0.1.0-1", modules: ["nothere.x": module("nothere/x.lua")])
        result = try DependenciesEndToEndTests.flowpkg(["init", "--rocks-server", "../rocks"], in: tree, cache: cache)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("requires nothere.x: the nothere rock provides these: flowpkg add nothere"),
            "\(result.stdout)")
        let project = try scratch.text("tree/flowpkg.json")
        #expect(project.contains(#""rocksServers": ["../rocks"]"#), "\(project)")
        result = try DependenciesEndToEndTests.flowpkg(["add", "penlight"], in: tree, cache: cache)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
