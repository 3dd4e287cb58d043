import FlowTestSupport
import Foundation
import Testing

/// flowpkg.json's `exclude` (issue 46): benchmarks, examples and doc stubs of a tree whose
/// sources are its top folder stay out of validate and out of the package.
@Suite struct ExcludeTests {
    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A library at the top of its folder, with a benchmark that does not compile, an example
    /// reading an undefined global and a resource draft.
    func makeTree(exclude: String) throws -> (scratch: Scratch, project: URL) {
        let scratch = try Scratch("exclude")
        let project = scratch.url.appendingPathComponent("lib")
        try write(
            """
            {"name": "lib", "identifier": "com.example.lib", "version": "1.0.0", "startModule": "main",
             "sources": ["."], "resources": ["Resources"]\(exclude)}

            """, to: project.appendingPathComponent("flowpkg.json"))
        try write("local util = require 'util'\nprint(util.twice(2))\n", to: project.appendingPathComponent("main.lua"))
        try write(
            "local M = {}\nfunction M.twice(x) return 2 * x end\nreturn M\n",
            to: project.appendingPathComponent("util.lua"))
        try write("local t = {\nprint(t\n", to: project.appendingPathComponent("bench/run.lua"))
        try write("print(undefined_thing)\n", to: project.appendingPathComponent("examples/basic/demo.lua"))
        try write("logo\n", to: project.appendingPathComponent("Resources/logo.txt"))
        try write("draft\n", to: project.appendingPathComponent("Resources/drafts/next.txt"))
        return (scratch, project)
    }

    @Test func excludedFilesAreNeitherValidatedNorPackaged() throws {
        let (scratch, project) = try makeTree(
            exclude: #", "exclude": ["bench", "examples/**/*.lua", "Resources/drafts"]"#)
        defer { scratch.remove() }
        let validate = try FlowpkgProcess.run(["validate"], in: project)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(!validate.stdout.contains("bench/") && !validate.stdout.contains("examples/"), "\(validate.stdout)")

        let export = try FlowpkgProcess.run(["export", "-o", "../lib.luapkg"], in: project)
        #expect(export.status == 0, "\(export.stdout)\(export.stderr)")
        let listing = try FlowpkgProcess.run(["inspect", "../lib.luapkg", "--list"], in: project).stdout
        #expect(listing.contains("modules/util.lua") && listing.contains("logo"), "\(listing)")
        #expect(!listing.contains("run.lua") && !listing.contains("demo") && !listing.contains("next"), "\(listing)")
    }

    @Test func withoutExcludeTheSameTreeFails() throws {
        let (scratch, project) = try makeTree(exclude: "")
        defer { scratch.remove() }
        let validate = try FlowpkgProcess.run(["validate"], in: project)
        #expect(validate.status == 1)
        #expect(validate.stdout.contains("bench/run.lua"), "\(validate.stdout)")
    }

    @Test func aGlobLeavingTheProjectIsRefusedAtItsPlace() throws {
        let (scratch, project) = try makeTree(exclude: #", "exclude": ["../other", "/etc"]"#)
        defer { scratch.remove() }
        let validate = try FlowpkgProcess.run(["validate"], in: project)
        #expect(validate.status == 1)
        let lines = validate.stdout.split(separator: "\n").filter { $0.contains("the exclude glob") }
        #expect(lines.count == 2, "\(validate.stdout)")
        #expect(lines.allSatisfy { $0.hasPrefix("flowpkg.json:2:") && $0.contains("[FP110]") }, "\(validate.stdout)")
    }
}
