import FlowTestSupport
import FlowTesting
import Foundation
import Testing

/// `--coverage`'s Cobertura XML (validated against the DTD's shape and read by PyPI's
/// pycobertura) and HTML report (opened in headless Chromium), on a real run of three modules:
/// one never required, one partly run, one in a subfolder fully run.
@Suite struct CoverageReportsTests {
    static let fixtures = BustedParityTests.fixtures.appendingPathComponent("coverage")
    static let modules = ["src/calc.lua", "src/shapes/square.lua", "src/unused.lua"]

    static func project() throws -> SpecProject {
        let calc = try String(
            contentsOf: BustedParityTests.fixtures.appendingPathComponent("features/src/calc.lua"), encoding: .utf8)
        let small = { (name: String) in
            "local \(name) = {}\nfunction \(name).run(x)\n  return x * x\nend\nreturn \(name)\n"
        }
        return try SpecProject(files: [
            "src/calc.lua": calc, "src/shapes/square.lua": small("square"), "src/unused.lua": small("unused"),
            "spec/report_spec.lua": """
            local calc = require("calc")
            local square = require("shapes.square")
            describe("reports", function()
              it("adds", function() assert.are.equal(3, calc.add(1, 2)) end)
              it("adds again", function() assert.are.equal(5, calc.add(2, 3)) end)
              it("squares", function() assert.are.equal(9, square.run(3)) end)
            end)

            """,
        ])
    }

    /// The run's report, written into `coverage/` of the project.
    static func written(_ project: SpecProject) throws -> (CoverageReport, URL) {
        var options = TestOptions()
        options.coverage = true
        options.coverageFiles = modules
        let run = TestRunner.run(try project.suite(), options: options)
        #expect(run.succeeded)
        let report = CoverageReport.make(root: project.root.path, modules: modules, lineHits: run.lineHits)
        let folder = project.root.appendingPathComponent("coverage")
        let written = try report.write(to: folder.path, sourceRoot: project.root.path)
        #expect(
            written.map { URL(fileURLWithPath: $0).lastPathComponent }
                == ["lcov.info", "luacov.report.out", "cobertura.xml", "index.html"])
        return (report, folder)
    }

    @Test func coberturaIsValidAndReadByPycobertura() throws {
        let project = try Self.project()
        defer { project.remove() }
        let (report, folder) = try Self.written(project)
        let xml = report.cobertura(sourceRoot: "/p", timestamp: 5)
        #expect(
            xml.contains("<coverage line-rate=\"0.6000\" branch-rate=\"0\" lines-covered=\"12\" lines-valid=\"20\""))
        #expect(xml.contains("<package name=\"src.shapes\" line-rate=\"1.0000\""))
        #expect(xml.contains("<class name=\"calc\" filename=\"src/calc.lua\" line-rate=\"0.7000\""))
        #expect(xml.contains("<line number=\"5\" hits=\"2\" branch=\"false\"/>"))
        let read = try FlowpkgProcess.run(
            [
                "python3", Self.fixtures.appendingPathComponent("cobertura_summary.py").path,
                folder.appendingPathComponent("cobertura.xml").path,
                Self.fixtures.appendingPathComponent("coverage-04.dtd").path,
            ], in: project.root, executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(
            read.stdout == """
                src/calc.lua\thit [2, 4, 5, 6, 9, 14, 16]\tmissed [10, 11, 13]\trate 0.7
                src/unused.lua\thit []\tmissed [1, 2, 3, 4, 5]\trate 0.0
                src/shapes/square.lua\thit [1, 2, 3, 4, 5]\tmissed []\trate 1.0
                total\t20\t8\t0.6

                """)
    }

    @Test func htmlReportIsReadInChromium() throws {
        let project = try Self.project()
        defer { project.remove() }
        let (report, folder) = try Self.written(project)
        #expect(report.summaryOrder.map(\.path) == ["src/unused.lua", "src/calc.lua", "src/shapes/square.lua"])
        for page in ["index.html", "style.css", "src/calc.lua.html", "src/shapes/square.lua.html"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(page).path), "\(page)")
        }
        let shots = ProcessInfo.processInfo.environment["COVERAGE_SCREENSHOTS"] ?? project.root.path + "/shot"
        let seen = try FlowpkgProcess.run(
            [
                "python3", Self.fixtures.appendingPathComponent("coverage_page.py").path, folder.path, shots,
                "src/calc.lua",
            ],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(seen.status == 0, "\(seen.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [String: Any], "\(seen.stdout)")
        #expect(json["title"] as? String == "Coverage: 60.0%")
        #expect(json["files"] as? [String] == ["src/unused.lua", "src/calc.lua", "src/shapes/square.lua"])
        #expect(json["coverage"] as? [String] == ["0.0%", "70.0%", "100.0%"])
        #expect(json["total"] as? String == "60.0%")
        #expect(json["heading"] as? String == "src/calc.lua")
        let kinds = "none hit none hit hit hit none none hit miss miss none miss hit none hit"
        #expect((json["kinds"] as? [String])?.joined(separator: " ") == kinds)
        #expect((json["hits"] as? [String])?.joined(separator: ",") == ",1,,1,2,1,,,1,0,0,,0,1,,1")
        let colours = json["colours"] as? [String] ?? []
        #expect(colours.count == 16)
        #expect(colours.first == "rgba(0, 0, 0, 0)")
        #expect(colours[1] == "rgb(223, 245, 225)")
        #expect(colours[9] == "rgb(251, 218, 218)")
        #expect(json["back"] as? String == "Coverage: 60.0%")
        #expect(json["failedRequests"] as? [String] == [])
    }

    @Test func markupInSourcesAndPathsIsEscaped() throws {
        let file = CoverageReport.File(
            path: "src/a&b.lua", executableLines: [1], hits: [1: 3], sourceLines: ["return '<b>&</b>'", ""])
        let report = CoverageReport(files: [file])
        let page = try #require(report.html["src/a&b.lua.html"])
        #expect(page.contains("<pre>return &#39;&lt;b&gt;&amp;&lt;/b&gt;&#39;</pre>"))
        #expect(report.html["index.html"]?.contains("href=\"src/a&amp;b.lua.html\">src/a&amp;b.lua</a>") == true)
        #expect(report.cobertura(sourceRoot: "/x&y", timestamp: 1).contains("<source>/x&amp;y</source>"))
    }
}
