import FlowAnalysis
@testable import FlowCLI
import FlowTestSupport
import Foundation
import Testing

/// The command line as a cargo user expects it: slips caught with the fix in the message, one
/// `error: ` style, the project found from any folder inside it, a digest that identifies.
@Suite struct CommandLineTests {
    // MARK: Slips

    @Test func aMistypedCommandSuggestsTheRightOne() throws {
        let result = try FlowpkgProcess.run(["valdate"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(
            result.stderr
                == "error: unknown command 'valdate'; did you mean 'validate'?\nSee 'flowpkg --help' for the commands.\n"
        )
        let swapped = try FlowpkgProcess.run(["exprot", "."])
        #expect(swapped.status == 64)
        #expect(swapped.stderr.hasPrefix("error: unknown command 'exprot'; did you mean 'export'?"))
        let unknown = try FlowpkgProcess.run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("error: unknown command 'frobnicate'\n"))
    }

    @Test func suggestionsAreCloseOnly() {
        let commands = Flowpkg.commandNames
        #expect(CommandLineSlip.suggestion(for: "valdate", among: commands) == "validate")
        #expect(CommandLineSlip.suggestion(for: "serv", among: commands) == "serve")
        #expect(CommandLineSlip.suggestion(for: "inpsect", among: commands) == "inspect")
        #expect(CommandLineSlip.suggestion(for: "temp", among: commands) == "templates")
        #expect(CommandLineSlip.suggestion(for: "build", among: commands) == nil)
        #expect(Suggestions.editDistance(Array("vaildate".utf8), Array("validate".utf8)) == 1)
    }

    @Test func extraArgumentsToRunHintAtTheTerminator() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        try fixture.package(try fixture.project("App", modules: ["main.lua": "print(...)\n"]), to: "app.luapkg")
        let result = try FlowpkgProcess.run(["run", "app.luapkg", "foo"], in: fixture.url)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("error: Unexpected argument 'foo'"))
        #expect(
            result.stderr.hasSuffix(
                "hint: to pass arguments to the Lua program put them after --: flowpkg run app.luapkg -- foo\n"))
        let several = try FlowpkgProcess.run(["run", "--trace", "app.luapkg", "a b", "c"], in: fixture.url)
        #expect(several.status == 64)
        #expect(
            several.stderr.hasSuffix("put them after --: flowpkg run --trace app.luapkg -- 'a b' c\n"),
            "\(several.stderr)")
    }

    /// Every command's errors start `error: ` on stderr, ArgumentParser's usage errors included.
    @Test func oneErrorPrefixEverywhere() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let cases: [([String], Int32)] = [
            (["export", "--format", "yaml"], 64),
            (["validate", "--strictly"], 64),
            (["inspect", "missing.luapkg"], 1),
            (["verify"], 64),
            (["run", "missing.luapkg"], 1),
            (["serve", "--token", "short"], 64),
            (["new", "X", "--template", "nope"], 64),
            (["init", "--set", "oops"], 64),
        ]
        for (arguments, status) in cases {
            let result = try FlowpkgProcess.run(arguments, in: fixture.url)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: "), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Error:"), "\(arguments)")
            #expect(result.stdout == "", "\(arguments)")
        }
    }

    // MARK: --package-version and --version

    @Test func exportTakesPackageVersionAndVersionIsTheTools() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let renamed = try FlowpkgProcess.run(["export", root.path, "--package-version", "2.5.0"], in: fixture.url)
        #expect(renamed.status == 0, "\(renamed.stdout)")
        #expect(renamed.stdout.contains("exported Demo-2.5.0.luapkg: com.example.app 2.5.0"))
        let tool = try FlowpkgProcess.run(["export", "--version"], in: fixture.url)
        #expect(tool.status == 0)
        #expect(tool.stdout == "0.1.0\n")
        for old in [["export", root.path, "--version", "3.0.0"], ["export", "--version=3.0.0", root.path]] {
            let result = try FlowpkgProcess.run(old, in: fixture.url)
            #expect(result.status == 64)
            #expect(
                result.stderr.hasPrefix(
                    "error: --version prints flowpkg's own version; set the package's version with --package-version 3.0.0\n"
                ))
            #expect(
                !FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("Demo-3.0.0.luapkg").path))
        }
        let help = try FlowpkgProcess.run(["export", "--help"])
        #expect(help.stdout.contains("--package-version <version>"))
        #expect(help.stdout.contains("it was --version"))
    }

    // MARK: Digest

    @Test func theDigestIdentifiesThePackageAndTheFileHashIsPrinted() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        var digests: [String: String] = [:]
        for (name, flags) in [
            ("base", [String]()), ("id", ["--identifier", "com.example.other"]),
            ("version", ["--package-version", "1.0.1"]), ("again", []),
        ] {
            let result = try FlowpkgProcess.run(["export", root.path, "-o", "\(name).luapkg"] + flags, in: fixture.url)
            #expect(result.status == 0, "\(result.stdout)")
            let digest = result.stdout.split(separator: "\n").first { $0.hasPrefix("digest: sha256:") }.map(String.init)
            digests[name] = digest
            let fileLine = result.stdout.split(separator: "\n").first { $0.hasPrefix("file sha256: ") }
            #expect(
                fileLine == "file sha256: \(try Self.sha256sum(fixture.url.appendingPathComponent("\(name).luapkg")))")
        }
        #expect(digests["base"] != nil && digests["base"] == digests["again"])
        #expect(digests["base"] != digests["id"])
        #expect(digests["base"] != digests["version"])
        #expect(digests["id"] != digests["version"])

        let inspect = try FlowpkgProcess.run(["inspect", "base.luapkg"], in: fixture.url)
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("  digest:       \(digests["base"]!.dropFirst("digest: ".count))\n"))
        #expect(
            inspect.stdout.contains(
                "  file sha256:  \(try Self.sha256sum(fixture.url.appendingPathComponent("base.luapkg")))\n"))
        #expect(inspect.stdout.contains("(format 2)"))
    }

    static func sha256sum(_ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    // MARK: The project found upward

    @Test func commandsFindTheProjectFromAFolderInsideIt() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "App", modules: ["main.lua": "print('ran from above')\n", "lib/util.lua": "return 1\n"])
        let inside = root.appendingPathComponent("Sources/lib")
        let validated = try FlowpkgProcess.run(["validate"], in: inside)
        #expect(validated.status == 0, "\(validated.stdout)")
        #expect(validated.stdout == "0 errors, 0 warnings in 2 modules and 0 resources\n")
        let ran = try FlowpkgProcess.run(["run"], in: inside)
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stdout == "ran from above\n")
        // The package goes to the project folder, not into its sources, and is shown from here.
        let exported = try FlowpkgProcess.run(["export"], in: inside)
        #expect(exported.status == 0, "\(exported.stdout)")
        #expect(exported.stdout.hasPrefix("exported ../../Demo-1.0.0.luapkg: com.example.app 1.0.0"))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Demo-1.0.0.luapkg").path))

        // Diagnostics name files relative to where the user is. (The start module requires the
        // broken one at its top level: an error, not a warning for a module loaded later.)
        try fixture.write(root.appendingPathComponent("Sources/broken.lua"), "local x = = 1\n")
        try fixture.write(root.appendingPathComponent("Sources/main.lua"), "require 'broken'\n")
        let broken = try FlowpkgProcess.run(["validate"], in: inside)
        #expect(broken.status == 1)
        #expect(broken.stdout.hasPrefix("../broken.lua:1:"), "\(broken.stdout)")

        // Outside any project: the current folder's missing flowpkg.json is reported.
        let outside = try FlowpkgProcess.run(["validate"], in: fixture.url)
        #expect(outside.status == 1)
        #expect(outside.stdout.contains("[FP108]"))
    }

    @Test func serveFindsTheProjectUpwardToo() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("App", modules: ["main.lua": "print('hi')\n"])
        let server = try BackgroundFlowpkg(
            ["serve", "--port", "0", "--token", "abcdefgh"], in: root.appendingPathComponent("Sources"))
        #expect(
            server.waitFor { stdout, _ in stdout.contains("Serving Demo (com.example.app) at http://127.0.0.1:") },
            "\(server.stderr)")
        #expect(
            server.waitFor { stdout, _ in
                stdout.contains("Connect: FLOWPKG_LIVE_TOKEN=abcdefgh flowpkg run --live http://127.0.0.1:")
            })
        #expect(server.interrupt() == 130)
    }

    @Test func relativePaths() {
        let renderer = DiagnosticRenderer(format: .text, workingDirectory: "/p/Sources/lib", projectAbove: "/p")
        #expect(renderer.displayPath("/p/flowpkg.json") == "../../flowpkg.json")
        #expect(renderer.displayPath("/p/Sources/lib/x.lua") == "x.lua")
        #expect(renderer.displayPath("/elsewhere/y.lua") == "/elsewhere/y.lua")
    }
}
