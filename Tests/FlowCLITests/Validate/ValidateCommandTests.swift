@testable import FlowCLI
import FlowDiagnostics
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// `flowpkg validate` run as a user runs it: output, exit status, golden files.
@Suite struct ValidateCommandTests {
    static let testsFolder = CLITestFolder.url.deletingLastPathComponent()
    static let fixtures = testsFolder.appendingPathComponent("Fixtures").standardizedFileURL
    static let golden = CLITestFolder.url.appendingPathComponent("Golden")

    /// Compares `actual` with a golden file; `RECORD_SNAPSHOTS=1` writes it instead.
    static func assertGolden(
        _ actual: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let file = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(
            actual == expected, "differs from Golden/\(name); re-record with RECORD_SNAPSHOTS=1",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: ["text", "json", "github"])
    func goldenOutput(format: String) throws {
        let project = Self.fixtures.appendingPathComponent("invalid/multiple")
        let result = try FlowpkgProcess.run(["validate", "--format", format], in: project)
        #expect(result.status == 1)
        #expect(result.stderr == "")
        try Self.assertGolden(result.stdout, "validate-multiple.\(format == "text" ? "txt" : format)")
        if format == "json" {
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let summary = object?["summary"] as? [String: Int]
            #expect(summary?["errors"] == 4)
            #expect(summary?["modules"] == 4)
        }
    }

    @Test func cleanProjectExitsZero() throws {
        let result = try FlowpkgProcess.run(["validate", "valid/Basic"], in: Self.fixtures)
        #expect(result.status == 0)
        #expect(result.stdout == "0 errors, 0 warnings in 3 modules and 2 resources\n")
    }

    @Test func pathsAreRelativeToTheWorkingDirectoryWhenInsideIt() throws {
        let inside = try FlowpkgProcess.run(["validate", "invalid/FP301"], in: Self.fixtures)
        #expect(
            inside.stdout.hasPrefix("invalid/FP301/Sources/main.lua:6:18: error: unexpected symbol near ')' [FP301]\n"))
        // A folder of its own, which the checkout (wherever it is) can never be inside.
        let elsewhere = try Scratch("outside").url
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let outside = try FlowpkgProcess.run(
            ["validate", Self.fixtures.appendingPathComponent("invalid/FP301").path],
            in: elsewhere)
        #expect(outside.stdout.hasPrefix(Self.fixtures.path + "/invalid/FP301/Sources/main.lua:6:18: error:"))
    }

    @Test func strictTurnsWarningsIntoErrors() throws {
        let lenient = try FlowpkgProcess.run(["validate", "invalid/FP103"], in: Self.fixtures)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("warning: unknown key \"startmodule\" is ignored [FP103]"))
        #expect(lenient.stdout.hasSuffix("0 errors, 1 warning in 1 module and 0 resources\n"))
        let strict = try FlowpkgProcess.run(["validate", "--strict", "invalid/FP103"], in: Self.fixtures)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("error: unknown key \"startmodule\" is ignored [FP103]"))
        #expect(strict.stdout.hasSuffix("1 error, 0 warnings in 1 module and 0 resources\n"))
    }

    @Test func missingFolderIsADiagnosticNotACrash() throws {
        let result = try FlowpkgProcess.run(["validate", "no/such/folder"], in: Self.fixtures)
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: the project folder"))
        #expect(result.stdout.contains("[FP108]"))
        let noProjectFile = try FlowpkgProcess.run(
            ["validate", "--format", "json", "invalid/FP108"], in: Self.fixtures)
        #expect(noProjectFile.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(noProjectFile.stdout.utf8)) as? [String: Any]
        let diagnostics = report?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.map { $0["code"] as? String } == ["FP108"])
    }

    @Test func usageErrorsExit64() throws {
        let result = try FlowpkgProcess.run(["validate", "--format", "xml"], in: Self.fixtures)
        #expect(result.status == 64)
        #expect(result.stderr.contains("xml"))
        let help = try FlowpkgProcess.run(["validate", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--strict"))
    }

    @Test func rendererColoursAndEscapes() {
        let diagnostic = Diagnostic(
            severity: .warning, code: .unknownKey, message: "50% done, a: b\r\nnext",
            file: "/work/p/a,b:c.lua", line: 3, column: 7, hint: "fix it")
        let github = DiagnosticRenderer(format: .github, workingDirectory: "/work/p").github(diagnostic)
        #expect(
            github == "::warning file=a%2Cb%3Ac.lua,line=3,col=7,title=FP103::50%25 done, a: b%0D%0Anext%0Ahint: fix it"
        )
        let plain = DiagnosticRenderer(format: .text, workingDirectory: "/elsewhere").text(diagnostic)
        // Escaped in text mode: a CR or newline in a message cannot forge another line (issue 38).
        #expect(plain == "/work/p/a,b:c.lua:3:7: warning: 50% done, a: b\\r\\nnext [FP103]\n    hint: fix it")
        let coloured = DiagnosticRenderer(format: .text, useColor: true, workingDirectory: "/work/p").text(diagnostic)
        #expect(coloured.contains("\u{1B}[1;33mwarning:\u{1B}[0m"))
        #expect(
            DiagnosticSummary(errors: 1, warnings: 2, modules: 1, resources: 0).sentence
                == "1 error, 2 warnings in 1 module and 0 resources")
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(!Terminal.supportsColor(fileDescriptor: -1, environment: [:]))
        #expect(!Terminal.supportsColor(environment: ["NO_COLOR": "1"]))
    }
}
