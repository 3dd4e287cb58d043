import FlowTestSupport
import Foundation
import Testing

/// `flowpkg init` makes a project in a folder that has things in it, never replacing a file;
/// `flowpkg new` without --template takes the default or, on a terminal, asks.
@Suite struct InitCommandTests {
    /// A folder as a user has it before: a git repository with a README.
    func existingFolder(_ scratch: Scratch, name: String = "words") throws -> URL {
        let folder = scratch.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("ref: refs/heads/main\n".utf8).write(to: folder.appendingPathComponent(".git/HEAD"))
        try Data("# My words\n".utf8).write(to: folder.appendingPathComponent("README.md"))
        return folder
    }

    @Test func writesWhatIsMissingAndKeepsWhatIsThere() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try existingFolder(scratch)
        let result = try FlowpkgProcess.run(["init", "--template", "console-app"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(
            result.stdout == """
                Made a project in . from template console-app:
                  wrote .gitignore
                  wrote .stylua.toml
                  wrote Resources/motd.txt
                  wrote Sources/Banner.lua
                  wrote Sources/Main.lua
                  wrote flowpkg.json
                  wrote spec/Banner_spec.lua
                  kept  README.md (already there, left as it was)

                Next:
                  flowpkg validate .

                """)
        let tree = scratch.tree
        #expect(tree["words/README.md"] == Data("# My words\n".utf8))
        #expect(tree["words/.git/HEAD"] == Data("ref: refs/heads/main\n".utf8))
        let projectFile = String(decoding: tree["words/flowpkg.json"]!!, as: UTF8.self)
        #expect(projectFile.contains(#""name": "words""#))
        #expect(projectFile.contains(#""identifier": "com.example.words""#))
        // No staging file left behind.
        #expect(!tree.keys.contains { $0.contains("flowpkg-init") })
        let validated = try FlowpkgProcess.run(["validate"], in: folder)
        #expect(validated.status == 0, "\(validated.stdout)")
        let ran = try FlowpkgProcess.run(["run"], in: folder)
        #expect(ran.status == 0, "\(ran.stderr)")
    }

    @Test func aProjectAlreadyIsRefusedAndLeftAsItWas() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try existingFolder(scratch)
        try Data(#"{"name": "mine"}"#.utf8).write(to: folder.appendingPathComponent("flowpkg.json"))
        let before = scratch.tree
        let result = try FlowpkgProcess.run(["init", "words", "--template", "lua-library"], in: scratch.url)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "error: words already holds a flowpkg.json: it is a project already (nothing was written); "
                + "check it with flowpkg validate\n")
        #expect(scratch.tree == before)
        try Data("a file".utf8).write(to: scratch.url.appendingPathComponent("afile"))
        let file = try FlowpkgProcess.run(["init", "afile"], in: scratch.url)
        #expect(file.status == 1)
        #expect(file.stderr == "error: afile already exists and is not a folder (nothing was written)\n")
    }

    @Test func aFileWhereAFolderMustGoStopsEverything() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try existingFolder(scratch)
        try Data("not a folder".utf8).write(to: folder.appendingPathComponent("Sources"))
        let before = scratch.tree
        let result = try FlowpkgProcess.run(["init", "words", "--template", "console-app"], in: scratch.url)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "error: cannot write Sources/Banner.lua: Sources is a file, not a folder (nothing was written)"))
        #expect(scratch.tree == before)
    }

    /// A `Sources/` symlink once made init write into its target, outside the folder.
    @Test func aSymlinkedFolderOnTheWayIsRefused() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try existingFolder(scratch)
        let elsewhere = scratch.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("Sources").path, withDestinationPath: elsewhere.path)
        let result = try FlowpkgProcess.run(["init", "words", "--template", "console-app"], in: scratch.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Sources is a symbolic link to \(elsewhere.path)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("flowpkg.json").path))
    }

    @Test func keepsAnExistingStartModule() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = try existingFolder(scratch)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data("print('my own main')\n".utf8).write(to: folder.appendingPathComponent("Sources/Main.lua"))
        let dry = try FlowpkgProcess.run(["init", "words", "--dry-run"], in: scratch.url)
        #expect(dry.status == 0)
        // Code is there: it is adopted (issue 36), and no template module is added beside it.
        #expect(dry.stdout.contains("Would adopt the Lua code in words"))
        #expect(dry.stdout.contains("startModule: \"Main\""))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("flowpkg.json").path))
        let result = try FlowpkgProcess.run(["init", "words"], in: scratch.url)
        #expect(result.status == 0)
        #expect(result.stdout.contains("  wrote flowpkg.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Sources/Banner.lua").path))
        let ran = try FlowpkgProcess.run(["run", "words"], in: scratch.url)
        #expect(ran.stdout == "my own main\n")
    }

    @Test func aNonASCIIFolderNameGivesAValidIdentifier() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let created = try FlowpkgProcess.run(["new", "Café Ünïcode", "--template", "lua-library"], in: scratch.url)
        #expect(created.status == 0, "\(created.stderr)")
        let projectFile = String(decoding: scratch.tree["Café Ünïcode/flowpkg.json"]!!, as: UTF8.self)
        #expect(projectFile.contains(#""identifier": "com.example.cafe-unicode""#))
        let other = try FlowpkgProcess.run(["new", "日本語", "--template", "lua-library"], in: scratch.url)
        #expect(other.status == 0, "\(other.stderr)")
        #expect(
            String(decoding: scratch.tree["日本語/flowpkg.json"]!!, as: UTF8.self).contains(
                #""identifier": "com.example.app""#))
        let validated = try FlowpkgProcess.run(["validate", "Café Ünïcode"], in: scratch.url)
        #expect(validated.status == 0, "\(validated.stdout)")
    }

    // MARK: new without --template

    @Test func newOffATerminalTakesTheDefaultTemplateAndSaysSo() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let result = try FlowpkgProcess.run(["new", "Fresh"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "note: no --template given; using console-app (flowpkg templates lists the others)\n")
        #expect(result.stdout.hasPrefix("Created Fresh from template console-app:"))
        #expect(scratch.tree["Fresh/Sources/Main.lua"] != nil)
    }

    @Test func newOnATerminalAsksForTheTemplate() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let (status, transcript) = try NewPromptTests().runOnATerminal(
            ["new", "Lib"], answers: "lua-libary\nlua-library\n\n\n\n", in: scratch)
        #expect(status == 0, "\(transcript)")
        #expect(transcript.contains("console-app"))
        #expect(transcript.contains("Template [console-app]: "))
        #expect(transcript.contains("no template named 'lua-libary'"))
        #expect(scratch.tree["Lib/Sources/TextKit/init.lua"] != nil)
        let defaulted = try NewPromptTests().runOnATerminal(["new", "App"], answers: "\n\n\n\n", in: scratch)
        #expect(defaulted.0 == 0, "\(defaulted.1)")
        #expect(scratch.tree["App/Sources/Main.lua"] != nil)
    }

    // MARK: Completion

    /// bash completes `flowpkg new X --template <TAB>` with the template names: the generated
    /// script, sourced in a real bash, asks the binary (`---completion`) for them.
    @Test func bashCompletesTemplateNames() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let script = try FlowpkgProcess.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let scriptFile = scratch.url.appendingPathComponent("flowpkg.bash")
        try Data(script.stdout.utf8).write(to: scriptFile)
        let bin = FlowpkgProcess.executable.deletingLastPathComponent().path
        for (line, expected) in [
            ("flowpkg new X --template ", ["console-app", "empty-ios-app", "lua-library"]),
            ("flowpkg init --template lu", ["lua-library"]),
        ] {
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(
                separator: " ")
            let driver = """
                source '\(scriptFile.path)'
                COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                COMP_WORDS=(\(words)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                _flowpkg flowpkg "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}" | sort
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", driver]
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(output.split(separator: "\n").map(String.init) == expected, "\(line): \(output)")
        }
        for shell in ["zsh", "fish"] {
            let generated = try FlowpkgProcess.run(["--generate-completion-script", shell])
            #expect(generated.status == 0)
            #expect(generated.stdout.contains("---completion new -- --template"), "\(shell)")
        }
        // What the scripts run: the words so far, the index of the one completed, the cursor in it.
        let direct = try FlowpkgProcess.run([
            "---completion", "new", "--", "--template", "4", "0",
            "flowpkg", "new", "X", "--template", "",
        ])
        #expect(direct.stdout.contains("console-app"), "\(direct.stdout)\(direct.stderr)")
    }
}
