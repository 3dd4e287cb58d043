import FlowTestSupport
import Foundation
import Testing

/// Issue 24, then issue 34: `export` accepts every program that `run` of its folder runs, and
/// never ships a module that surely fails when it loads.
///
/// Uncertain findings stay graded by what loads at start: a require cycle (FP403), or code
/// inside a function that may never run (an unknown require, FP401; a missing resource, FP404).
/// Where nothing reaches them at start, export writes the package with a warning of its own
/// code (FP407, FP402, FP408); the folder and the package run, and the error comes when that
/// code runs, as the warning says. Reached at start, each is still an error.
///
/// Certain findings are errors in every module, reached at start or not (issue 34): a syntax
/// error, and at a module's top level an unguarded require nothing provides or a getResource of
/// a literal name the project lacks. Planted in a module only a function requires, each fails
/// `validate` and `export` with exit 1, and no package is written.
@Suite struct ExportWhatRunRunsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// Modules besides main; main calls `later()` only when given the argument `later`.
        var modules: [String: String]
        /// main's code that meets the problem: inside `later()`, or at its top level.
        var problem: String
        var warning: String
        var error: String
        /// What Lua says when the problem is met.
        var runtimeMessage: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "require cycle",
            modules: [
                "a.lua": "local b = require \"b\"\nreturn {}\n", "b.lua": "local a = require \"a\"\nreturn {}\n",
            ],
            problem: "require(\"a\")", warning: "FP407", error: "FP403", runtimeMessage: "stack overflow"),
        Case(
            name: "missing resource", modules: [:], problem: "getResource(\"img/banner\", \"png\")",
            warning: "FP408", error: "FP404", runtimeMessage: "img/banner"),
        Case(
            name: "unknown require", modules: [:], problem: "require(\"nothing.provides\")",
            warning: "FP402", error: "FP401", runtimeMessage: "module 'nothing.provides' not found"),
    ]

    /// A certain error, planted at the top level of `later.lua`, a module only a function of
    /// main requires.
    struct Certain: Sendable, CustomTestStringConvertible {
        var name: String
        var later: String
        var code: String
        var place: String
        var testDescription: String { name }
    }

    static let certain: [Certain] = [
        Certain(name: "syntax error", later: "return { text = \"done\" .. }\n", code: "FP301", place: "later.lua:1:27"),
        Certain(
            name: "unknown top-level require", later: "local missing = require \"nothing.provides\"\nreturn {}\n",
            code: "FP401", place: "later.lua:1:17"),
        Certain(
            name: "missing top-level resource",
            later: "local banner = getResource(\"img/banner\", \"png\")\nreturn { banner = banner }\n",
            code: "FP404", place: "later.lua:1:16"),
    ]

    @Test(arguments: certain)
    func aCertainErrorInAModuleOnlyAFunctionRequiresStopsExport(_ test: Certain) throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(
            fixture,
            Case(
                name: test.name, modules: ["later.lua": test.later], problem: "require(\"later\")",
                warning: "", error: test.code, runtimeMessage: ""), atStart: false)

        let validate = try FlowpkgProcess.run(["validate", root.path])
        let validated = validate.stdout + validate.stderr
        #expect(validate.status == 1, "\(validated)")
        #expect(
            validated.contains("Sources/\(test.place): error:") && validated.contains("[\(test.code)]"), "\(validated)")

        let package = fixture.url.appendingPathComponent("lazy.luapkg")
        let export = try FlowpkgProcess.run(["export", "--verbose", root.path, "-o", package.path])
        let report = export.stdout + export.stderr
        #expect(export.status == 1, "\(report)")
        #expect(report.contains("error:") && report.contains("[\(test.code)]"), "\(report)")
        #expect(!FileManager.default.fileExists(atPath: package.path))
        // Nothing else was left beside the target either (no temporary file).
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.url.path)
        #expect(left.filter { $0.contains("luapkg") } == [], "\(left)")
    }

    /// A project whose main module prints, then meets `problem` inside a function it calls only
    /// when given `later` (`atStart` false), or at its top level before printing (`atStart` true).
    func project(_ fixture: RunFixture, _ test: Case, atStart: Bool) throws -> URL {
        let root = fixture.url.appendingPathComponent(atStart ? "eager" : "lazy")
        try fixture.write(
            root.appendingPathComponent("flowpkg.json"),
            """
            {"name": "Demo", "identifier": "com.example.demo", "version": "1.0.0", "startModule": "main",
             "sources": ["Sources"], "resources": ["Resources"], "environment": "codeflow-ios"}
            """)
        try fixture.write(root.appendingPathComponent("Resources/img/logo.png"), "logo")
        let main =
            atStart
            ? "local logo = getResource(\"img/logo\", \"png\")\nlocal value = \(test.problem)\nprint(\"started\")\n"
            : """
            local logo = getResource("img/logo", "png")
            local function later() return \(test.problem) end
            print("started")
            if ... == "later" then later() end

            """
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), main)
        for (path, code) in test.modules { try fixture.write(root.appendingPathComponent("Sources/" + path), code) }
        return root
    }

    @Test(arguments: cases)
    func exportAcceptsWhatRunRuns(_ test: Case) throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(fixture, test, atStart: false)

        let run = try FlowpkgProcess.run(["run", root.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "started\n")

        let package = fixture.url.appendingPathComponent("lazy.luapkg")
        let export = try FlowpkgProcess.run(["export", "--verbose", root.path, "-o", package.path])
        let report = export.stdout + export.stderr
        #expect(export.status == 0, "\(report)")
        #expect(report.contains("warning:") && report.contains("[\(test.warning)]"), "\(report)")
        #expect(!report.contains("[\(test.error)]"), "\(report)")
        #expect(FileManager.default.fileExists(atPath: package.path))

        let fromPackage = try FlowpkgProcess.run(["run", package.path])
        #expect(fromPackage.status == 0, "\(fromPackage.stderr)")
        #expect(fromPackage.stdout == "started\n")

        // The warning is right about run time: when the code runs, it fails there, folder and package alike.
        for target in [root.path, package.path] {
            let later = try FlowpkgProcess.run(["run", target, "--", "later"])
            #expect(later.status == 1, "\(later.stderr)")
            #expect(later.stdout == "started\n")
            #expect(later.stderr.contains(test.runtimeMessage), "\(later.stderr)")
        }
    }

    @Test(arguments: cases)
    func reachedAtStartItIsStillAnError(_ test: Case) throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try project(fixture, test, atStart: true)

        let package = fixture.url.appendingPathComponent("eager.luapkg")
        let export = try FlowpkgProcess.run(["export", "--verbose", root.path, "-o", package.path])
        let report = export.stdout + export.stderr
        #expect(export.status == 1)
        #expect(report.contains("error:") && report.contains("[\(test.error)]"), "\(report)")
        #expect(!report.contains("[\(test.warning)]"), "\(report)")
        #expect(!FileManager.default.fileExists(atPath: package.path))

        // run agrees: the program fails before it prints anything.
        let run = try FlowpkgProcess.run(["run", root.path])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr.contains(test.runtimeMessage), "\(run.stderr)")
    }

    /// Text that is not UTF-8 is still Lua: lua5.4 reads source as bytes. A Latin-1 module
    /// loaded at start is a warning (FP305), export packages its bytes as they are, and the
    /// folder and the package print what lua5.4 prints (é is byte 233 in Latin-1).
    @Test func latin1SourceExportsAndRunsAsLua54Does() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = fixture.url.appendingPathComponent("latin1")
        try fixture.write(
            root.appendingPathComponent("flowpkg.json"),
            """
            {"name": "Latin", "identifier": "com.example.latin", "version": "1.0.0", "startModule": "main",
             "sources": ["Sources"]}
            """)
        try fixture.write(
            root.appendingPathComponent("Sources/main.lua"),
            "local names = require(\"names\")\nprint(names.cafe:byte(4), #names.cafe)\n")
        let latin1 = Array("return { cafe = \"caf".utf8) + [0xE9] + Array("\" }\n".utf8)
        try Data(latin1).write(to: root.appendingPathComponent("Sources/names.lua"))

        let package = fixture.url.appendingPathComponent("latin1.luapkg")
        let export = try FlowpkgProcess.run(["export", "--verbose", root.path, "-o", package.path])
        let report = export.stdout + export.stderr
        #expect(export.status == 0, "\(report)")
        #expect(report.contains("names.lua:1:21: warning:") && report.contains("[FP305]"), "\(report)")
        #expect(!report.contains("error:"), "\(report)")

        let lua = try FlowpkgProcess.run(["run", "main.lua"], in: root.appendingPathComponent("Sources"))
        #expect(lua.stdout == "233\t4\n", "a lone file, as lua5.4 runs it: \(lua.stderr)")
        for target in [root.path, package.path] {
            let run = try FlowpkgProcess.run(["run", target])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "233\t4\n", "\(target)")
        }
    }
}
