import FlowTestSupport
import Foundation
import Testing

/// `flowpkg inspect` and `flowpkg verify` on packages `export` wrote, and on damaged ones.
@Suite struct PackageCommandTests {
    let scratch: URL

    init() throws {
        scratch = try Scratch("pkgcmd").url
        let project = ValidateCommandTests.fixtures.appendingPathComponent("valid/Basic").path
        let export = try FlowpkgProcess.run(["export", project, "-o", "Basic.luapkg"], in: scratch)
        guard export.status == 0 else { throw CommandFailure(output: export.stdout + export.stderr) }
    }

    struct CommandFailure: Error { var output: String }

    @Test(arguments: [
        ["inspect", "Basic.luapkg"], ["inspect", "Basic.luapkg", "--list"],
        ["inspect", "Basic.luapkg", "--list", "--format", "json"],
        ["verify", "Basic.luapkg"], ["verify", "Basic.luapkg", "--format", "json"],
    ])
    func goldenOutput(arguments: [String]) throws {
        let result = try FlowpkgProcess.run(arguments, in: scratch)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let name = arguments.filter { $0 != "Basic.luapkg" }.map { $0.replacingOccurrences(of: "--", with: "") }.joined(
            separator: "-")
        try ValidateCommandTests.assertGolden(result.stdout, "\(name).txt")
    }

    @Test func otherZipToolsReadThePackage() throws {
        let package = scratch.appendingPathComponent("Basic.luapkg").path
        let python = try Self.tool(
            "python3",
            ["-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip(), z.namelist()[0])", package])
        #expect(python == "None manifest.json\n")
        #expect(try Self.tool("unzip", ["-l", package]).contains("modules/Util/init.lua"))
        #expect(try Self.tool("bsdtar", ["-tf", package]).hasPrefix("manifest.json\nmodules/Util/init.lua\n"))
    }

    @Test func editedModuleIsNamedByVerify() throws {
        let package = scratch.appendingPathComponent("Basic.luapkg").path
        // Rewrites the zip with one byte of modules/main.lua changed (and a correct CRC), so
        // only the manifest's SHA-256 can tell.
        _ = try Self.tool(
            "python3",
            [
                "-c",
                """
                import zipfile, sys
                src = zipfile.ZipFile(sys.argv[1]); items = [(i, src.read(i)) for i in src.infolist()]; src.close()
                with zipfile.ZipFile(sys.argv[1], 'w') as out:
                    for info, data in items:
                        if info.filename == 'modules/main.lua': data = data[:10] + bytes([data[10] ^ 1]) + data[11:]
                        out.writestr(info, data)
                """, package,
            ])
        let result = try FlowpkgProcess.run(["verify", "Basic.luapkg"], in: scratch)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("Basic.luapkg: modules/main.lua: sha256 mismatch: the manifest lists "))
        #expect(lines[0].hasSuffix(" [FP706]"))
        #expect(lines[1] == "Basic.luapkg: 1 problem")
        let json = try FlowpkgProcess.run(["verify", "Basic.luapkg", "--format", "json"], in: scratch)
        #expect(json.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(report?["ok"] as? Bool == false)
        let problems = report?["problems"] as? [[String: Any]]
        #expect(problems?.count == 1)
        #expect(problems?.first?["entry"] as? String == "modules/main.lua")
        #expect(problems?.first?["code"] as? String == "FP706")
        #expect((problems?.first?["message"] as? String)?.hasPrefix("sha256 mismatch") == true)
        // inspect refuses nothing here (entries are only read by verify), the loader's checks hold.
        #expect(try FlowpkgProcess.run(["inspect", "Basic.luapkg"], in: scratch).status == 0)
    }

    @Test func identifierIsChecked() throws {
        let wrong = try FlowpkgProcess.run(
            ["verify", "Basic.luapkg", "--identifier", "com.example.other"], in: scratch)
        #expect(wrong.status == 1)
        #expect(
            wrong.stdout.hasPrefix(
                "Basic.luapkg: manifest.json: the package is com.example.basic, not com.example.other [FP708]\n"))
        let right = try FlowpkgProcess.run(
            ["verify", "Basic.luapkg", "--identifier", "com.example.basic"], in: scratch)
        #expect(right.status == 0)
        let invalid = try FlowpkgProcess.run(["verify", "Basic.luapkg", "--identifier", "bad id"], in: scratch)
        #expect(invalid.status == 64)
        #expect(invalid.stderr.contains("--identifier 'bad id' is not valid"))
    }

    @Test func brokenFilesAreClearErrors() throws {
        try Data(repeating: 7, count: 5000).write(to: scratch.appendingPathComponent("junk.luapkg"))
        let verify = try FlowpkgProcess.run(["verify", "junk.luapkg"], in: scratch)
        #expect(verify.status == 1)
        #expect(
            verify.stdout
                == "junk.luapkg: not a .luapkg package: it has no zip end record: it is not a zip archive, or it was cut short [FP701]\njunk.luapkg: 1 problem\n"
        )
        let inspect = try FlowpkgProcess.run(["inspect", "missing.luapkg"], in: scratch)
        #expect(inspect.status == 1)
        #expect(inspect.stderr == "error: missing.luapkg: cannot read the package: No such file or directory\n")
        _ = FileManager.default.createFile(
            atPath: scratch.appendingPathComponent("empty.luapkg").path, contents: Data())
        let empty = try FlowpkgProcess.run(["inspect", "empty.luapkg"], in: scratch)
        #expect(empty.stderr == "error: empty.luapkg: not a .luapkg package: the file is empty\n")
        #expect(try FlowpkgProcess.run(["inspect", "--help"]).stdout.contains("--list"))
        #expect(try FlowpkgProcess.run(["verify", "--help"]).stdout.contains("--identifier"))
    }

    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
