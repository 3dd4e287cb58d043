import FlowDiagnostics
import FlowProject
import Foundation
import Testing

/// Every rule's fixture under Tests/Fixtures/invalid/<code>/ gives that code at that place.
@Suite struct ValidatorRuleTests {
    /// code → the places (relative to the fixture) where validation must report it.
    static let expected: [(code: String, places: [String])] = [
        ("FP101", ["flowpkg.json:4:3"]),
        ("FP102", ["flowpkg.json:5:3"]),
        ("FP103", ["flowpkg.json:5:3"]),
        ("FP104", ["flowpkg.json:1:1"]),
        ("FP105", ["flowpkg.json:3:17"]),
        ("FP106", ["flowpkg.json:4:14"]),
        ("FP107", ["flowpkg.json:5:18"]),
        ("FP108", ["flowpkg.json"]),
        ("FP109", ["flowpkg.json:5:26"]),
        ("FP110", ["flowpkg.json:5:26"]),
        ("FP201", ["Sources/my?module.lua"]),
        ("FP202", ["More/Foo.lua"]),
        ("FP203", ["Lib/json.lua"]),
        ("FP204", ["flowpkg.json:7:5"]),
        ("FP205", ["Texts/h2g2.txt"]),
        ("FP206", ["Art/logo.png"]),
        ("FP207", ["flowpkg.json:7:5"]),
        ("FP209", ["flowpkg.json:5:18"]),
        ("FP210", ["Sources/escape.lua", "Sources/loop"]),
        ("FP301", ["Sources/main.lua:6:18"]),
        ("FP302", ["Sources/data.lua:2:9"]),
        ("FP303", ["Sources/deep.lua:1:1010"]),
        ("FP305", ["Sources/names.lua:2:21"]),
    ]

    @Test(arguments: expected.map(\.code))
    func fixtureReportsItsCodeAtItsPlace(code: String) {
        let root = ProjectFixtures.url("invalid/\(code)")
        let report = Validator.validate(projectAt: root)
        let places = Self.expected.first { $0.code == code }!.places
        #expect(
            report.diagnostics.map(\.code.code) == Array(repeating: code, count: places.count),
            "\(report.diagnostics)")
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == places)
        #expect(report.diagnostics.allSatisfy { !$0.message.isEmpty })
        let isWarning = ["FP103", "FP305"].contains(code)
        #expect(report.hasErrors == !isWarning)
    }

    /// Issue 34: a syntax error in a module only a function requires is an error too (it was
    /// the warning FP304): export would package a module whose first require fails.
    @Test func aSyntaxErrorInAModuleNotLoadedAtStartIsAnError() {
        let root = ProjectFixtures.url("invalid/FP301-not-at-start")
        let report = Validator.validate(projectAt: root)
        #expect(report.diagnostics.map(\.code.code) == ["FP301"], "\(report.diagnostics)")
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == ["Sources/later.lua:1:27"])
        #expect(report.hasErrors)
        #expect(report.diagnostics.first?.hint?.contains("'later' does not load at start") == true)
    }

    @Test func messagesSayWhatIsWrong() {
        func only(_ code: String) -> Diagnostic {
            Validator.validate(projectAt: ProjectFixtures.url("invalid/\(code)")).diagnostics[0]
        }
        #expect(only("FP101").message.contains("expected ',' or '}'"))
        #expect(only("FP102").message == "\"sources\" must be an array of strings, not a string")
        #expect(only("FP103").hint == "did you mean 'startModule'?")
        #expect(only("FP104").message.contains("\"version\""))
        #expect(only("FP107").hint?.contains("codeflow-ios") == true)
        #expect(only("FP202").message.contains("'Sources/Foo.lua'"))
        #expect(only("FP209").hint == "did you mean 'Main'?")
        #expect(only("FP301").message == "unexpected symbol near ')'")
    }

    @Test func aFIFONamedLikeAModuleIsRefusedWithoutBlocking() throws {
        let project = try ProjectFixtures.copy("invalid/FP208")
        defer { ProjectFixtures.remove(project) }
        #expect(mkfifo(project.appendingPathComponent("Sources/pipe.lua").path, 0o644) == 0)
        let report = Validator.validate(projectAt: project)
        #expect(report.diagnostics.map(\.code.code) == ["FP208"])
        #expect(report.diagnostics.map { $0.place(relativeTo: project) } == ["Sources/pipe.lua"])
    }

    @Test func aTenMegabyteOneLineModuleIsADiagnostic() throws {
        let project = try ProjectFixtures.copy("invalid/FP208")
        defer { ProjectFixtures.remove(project) }
        let line = "x = " + String(repeating: "1+", count: 5_000_000) + "1"
        try line.write(to: project.appendingPathComponent("Sources/huge.lua"), atomically: true, encoding: .utf8)
        let report = Validator.validate(projectAt: project)
        #expect(report.diagnostics.map(\.code.code) == ["FP303"])
        #expect(report.diagnostics.first?.message.contains("8.0 MB") == true)
    }

    @Test func anUnfinishedMegabyteStringIsQuotedShort() throws {
        let project = try ProjectFixtures.copy("invalid/FP208")
        defer { ProjectFixtures.remove(project) }
        let text = "x = \"" + String(repeating: "a", count: 1_000_000) + "\nreturn x\n"
        try text.write(to: project.appendingPathComponent("Sources/long.lua"), atomically: true, encoding: .utf8)
        let report = Validator.validate(projectAt: project)
        #expect(report.diagnostics.map(\.code.code) == ["FP301"])
        #expect(report.diagnostics.map { $0.place(relativeTo: project) } == ["Sources/long.lua:1:5"])
        #expect((report.diagnostics.first?.message.utf8.count ?? 0) < 100)
    }

    @Test func aMissingFolderIsADiagnostic() {
        let missing = ProjectFixtures.url("invalid/does-not-exist")
        let report = Validator.validate(projectAt: missing)
        #expect(report.diagnostics.map(\.code.code) == ["FP108"])
        #expect(report.project == nil)
    }
}
