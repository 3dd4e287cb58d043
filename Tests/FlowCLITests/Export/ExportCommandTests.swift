import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `flowpkg export` run as a user runs it, in a scratch folder.
@Suite struct ExportCommandTests {
    static let fixtures = ValidateCommandTests.fixtures
    let scratch: URL

    init() throws {
        scratch = try Scratch("export").url
    }

    private func basic() -> String { Self.fixtures.appendingPathComponent("valid/Basic").path }

    @Test(arguments: ["text", "json"])
    func goldenOutput(format: String) throws {
        let result = try FlowpkgProcess.run(["export", basic(), "--format", format], in: scratch)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try ValidateCommandTests.assertGolden(result.stdout, "export-basic.\(format == "text" ? "txt" : format)")
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("Basic-1.0.0.luapkg").path))
    }

    @Test func invalidProjectPrintsDiagnosticsAndWritesNothing() throws {
        try Data("older".utf8).write(to: scratch.appendingPathComponent("out.luapkg"))
        let result = try FlowpkgProcess.run(
            ["export", "invalid/FP301", "-o", scratch.appendingPathComponent("out.luapkg").path],
            in: Self.fixtures)
        #expect(result.status == 1)
        try ValidateCommandTests.assertGolden(result.stdout, "export-invalid.txt")
        #expect(try Data(contentsOf: scratch.appendingPathComponent("out.luapkg")) == Data("older".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.luapkg"])
    }

    @Test func sameBytesFromAnotherWorkingDirectory() throws {
        let other = scratch.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let first = try FlowpkgProcess.run(
            ["export", "valid/Basic", "-o", scratch.appendingPathComponent("a.luapkg").path], in: Self.fixtures)
        let second = try FlowpkgProcess.run(["export", basic(), "-o", "../b.luapkg"], in: other)
        #expect(first.status == 0 && second.status == 0)
        #expect(
            try Data(contentsOf: scratch.appendingPathComponent("a.luapkg"))
                == Data(contentsOf: scratch.appendingPathComponent("b.luapkg")))
        let epoch = try FlowpkgProcess.run(
            ["export", basic(), "-o", "c.luapkg"], in: scratch, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(epoch.status == 0)
        #expect(
            try Data(contentsOf: scratch.appendingPathComponent("c.luapkg"))
                != Data(contentsOf: scratch.appendingPathComponent("a.luapkg")))
    }

    @Test func sameBytesInEveryTimeZone() throws {
        var packages: [Data] = []
        for zone in ["UTC0", "JST-9", "PST8PDT"] {
            let result = try FlowpkgProcess.run(
                ["export", basic(), "-o", "tz-\(zone).luapkg"], in: scratch,
                environment: ["TZ": zone, "SOURCE_DATE_EPOCH": "1700000000"])
            #expect(result.status == 0)
            packages.append(try Data(contentsOf: scratch.appendingPathComponent("tz-\(zone).luapkg")))
        }
        #expect(packages[0] == packages[1] && packages[1] == packages[2])
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c", "import zipfile,sys; print(zipfile.ZipFile(sys.argv[1]).infolist()[1].date_time)",
            scratch.appendingPathComponent("tz-JST-9.luapkg").path,
        ]
        let pipe = Pipe()
        python.standardOutput = pipe
        try python.run()
        python.waitUntilExit()
        let stamp = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stamp.trimmingCharacters(in: .whitespacesAndNewlines) == "(2023, 11, 14, 22, 13, 20)")
    }

    @Test func overridesAndStrict() throws {
        let result = try FlowpkgProcess.run(
            ["export", basic(), "--identifier", "com.example.ci", "--package-version", "3.1.4", "--format", "json"],
            in: scratch)
        #expect(result.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let package = report?["package"] as? [String: Any]
        #expect(package?["path"] as? String == "Basic-3.1.4.luapkg")
        #expect(package?["identifier"] as? String == "com.example.ci")
        #expect(package?["version"] as? String == "3.1.4")
        let lenient = try FlowpkgProcess.run(
            ["export", Self.fixtures.appendingPathComponent("invalid/FP103").path], in: scratch)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("1 warning not listed") && !lenient.stdout.contains("warning: unknown key"))
        #expect(lenient.stdout.contains("(1 warning)"))
        let strict = try FlowpkgProcess.run(
            ["export", "--strict", Self.fixtures.appendingPathComponent("invalid/FP103").path, "-o", "s.luapkg"],
            in: scratch)
        #expect(strict.status == 1)
        #expect(strict.stdout.hasSuffix("1 error, 0 warnings in 1 module and 0 resources; nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("s.luapkg").path))
    }

    @Test func unwritableOutputNamesThePath() throws {
        // A missing folder is made (ExportOutputTests); a file standing where it would be is not.
        try Data("a file\n".utf8).write(to: scratch.appendingPathComponent("taken"))
        let result = try FlowpkgProcess.run(["export", basic(), "-o", "taken/dir/x.luapkg"], in: scratch)
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix(
                "taken/dir/x.luapkg: error: cannot make the folder \(scratch.path)/taken/dir for the package: "),
            "\(result.stdout)")
        #expect(result.stdout.contains("[FP501]"))
        let badEpoch = try FlowpkgProcess.run(
            ["export", basic()], in: scratch, environment: ["SOURCE_DATE_EPOCH": "soon"])
        #expect(badEpoch.status == 1)
        #expect(badEpoch.stdout.contains("[FP504]"))
        let usage = try FlowpkgProcess.run(["export", "--format", "yaml"], in: scratch)
        #expect(usage.status == 64)
        let help = try FlowpkgProcess.run(["export", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--identifier") && help.stdout.contains("SOURCE_DATE_EPOCH"))
    }

    @Test func ctrlCLeavesTheOlderPackageAndNoTemporaryFile() throws {
        // A project big enough that the export is still running when the signal comes:
        // a sparse 512 MB text resource costs no disk but takes a while to hash and deflate.
        let project = scratch.appendingPathComponent("Big")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("Resources"), withIntermediateDirectories: true)
        try Data(
            "{\"name\": \"Big\", \"identifier\": \"com.example.big\", \"version\": \"1.0.0\", \"startModule\": \"main\"}"
                .utf8
        )
        .write(to: project.appendingPathComponent("flowpkg.json"))
        try Data("print('hi')\n".utf8).write(to: project.appendingPathComponent("Sources/main.lua"))
        let big = project.appendingPathComponent("Resources/zeros.txt")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 512 << 20)
        try handle.close()
        let outFolder = scratch.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outFolder, withIntermediateDirectories: true)
        // An older package there: export replaces packages only, and this one must survive.
        let older = try FlowpkgProcess.run(
            ["export", basic(), "-o", outFolder.appendingPathComponent("Big.luapkg").path],
            in: scratch)
        #expect(older.status == 0)
        let olderBytes = try Data(contentsOf: outFolder.appendingPathComponent("Big.luapkg"))

        let process = Process()
        process.executableURL = FlowpkgProcess.executable
        process.arguments = ["export", project.path, "-o", outFolder.appendingPathComponent("Big.luapkg").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the temporary file exists: the writer is then past validation and busy.
        var sawTemporary = false
        for _ in 0..<3000 where process.isRunning {
            if (try FileManager.default.contentsOfDirectory(atPath: outFolder.path)).contains(where: {
                $0.hasSuffix(".tmp")
            }) {
                sawTemporary = true
                break
            }
            usleep(10_000)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(sawTemporary, "the export ended before it could be interrupted")
        #expect(process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outFolder.path) == ["Big.luapkg"])
        #expect(try Data(contentsOf: outFolder.appendingPathComponent("Big.luapkg")) == olderBytes)
    }
}
