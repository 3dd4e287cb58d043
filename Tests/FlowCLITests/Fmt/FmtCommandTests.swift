import FlowTestSupport
import Foundation
import Testing

/// `flowpkg fmt` run as a user runs it: files rewritten or left, diffs, exit statuses, and
/// bad input (syntax errors, bad configuration, read-only files) reported with nothing lost.
@Suite struct FmtCommandTests {
    func write(_ text: String, _ name: String, in scratch: Scratch) throws {
        let url = scratch.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ name: String, in scratch: Scratch) throws -> String {
        try String(contentsOf: scratch.url.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func formatsInPlaceAndLeavesASyntaxErrorAsItIs() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write("local  x=1\n", "a.lua", in: scratch)
        try write("local y =\n", "broken.lua", in: scratch)
        try write("return 1\n", "vendor/dep.lua", in: scratch)
        let result = try FlowpkgProcess.run(["fmt"], in: scratch.url)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "broken.lua:2:1: error: unexpected symbol near '<eof>'; not formatted [FP301]\n")
        #expect(try read("a.lua", in: scratch) == "local x = 1\n")
        #expect(try read("broken.lua", in: scratch) == "local y =\n")
        let again = try FlowpkgProcess.run(["fmt", "a.lua"], in: scratch.url)
        #expect(again.status == 0 && again.stdout == "" && again.stderr == "")
    }

    @Test func checkPrintsAUnifiedDiffAndWritesNothing() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write("print( 'x' )\n", "a.lua", in: scratch)
        let result = try FlowpkgProcess.run(["fmt", "--check", "a.lua"], in: scratch.url)
        #expect(result.status == 1)
        #expect(result.stdout == "--- a.lua\n+++ a.lua\n@@ -1,1 +1,1 @@\n-print( 'x' )\n+print(\"x\")\n")
        #expect(try read("a.lua", in: scratch) == "print( 'x' )\n")
        let github = try FlowpkgProcess.run(["fmt", "--check", "--format", "github", "a.lua"], in: scratch.url)
        #expect(github.stdout.hasPrefix("::error file=a.lua,line=1,col=1"))
        let json = try FlowpkgProcess.run(["fmt", "--check", "--format", "json", "a.lua"], in: scratch.url)
        #expect(json.stdout.contains("\"status\" : \"would change\""))
    }

    @Test func configurationFromTheFileFolderUpward() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write(
            "indent_type = \"Spaces\"\nindent_width = 2\nquote_style = \"AutoPreferSingle\"\n", "lib/.stylua.toml",
            in: scratch)
        try write("if x then print(\"a\") end\n", "lib/inner/a.lua", in: scratch)
        try write("if x then print('a') end\n", "b.lua", in: scratch)
        let result = try FlowpkgProcess.run(["fmt", "lib", "b.lua"], in: scratch.url)
        #expect(result.status == 0)
        #expect(try read("lib/inner/a.lua", in: scratch) == "if x then\n  print('a')\nend\n")
        #expect(try read("b.lua", in: scratch) == "if x then\n\tprint(\"a\")\nend\n")
    }

    @Test func unknownOrMistypedKeysAreNamedWithTheFile() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write("colum_width = 80\n", "stylua.toml", in: scratch)
        try write("local  x=1\n", "a.lua", in: scratch)
        let unknown = try FlowpkgProcess.run(["fmt", "a.lua"], in: scratch.url)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.hasPrefix("stylua.toml:1:15: error: unknown key 'colum_width'"))
        try write("column_width = \"80\"\n", "stylua.toml", in: scratch)
        let mistyped = try FlowpkgProcess.run(["fmt", "a.lua"], in: scratch.url)
        #expect(mistyped.stderr.hasPrefix("stylua.toml:1:16: error: key 'column_width' must be a positive whole number"))
        #expect(try read("a.lua", in: scratch) == "local  x=1\n")
    }

    @Test func aReadOnlyFileIsReportedAndKept() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write("local  x=1\n", "locked.lua", in: scratch)
        let path = scratch.url.appendingPathComponent("locked.lua").path
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let result = try FlowpkgProcess.run(["fmt", "locked.lua", "missing.lua"], in: scratch.url)
        #expect(result.status == 1)
        #expect(result.stderr.contains("locked.lua: error: cannot write it: the file is read-only"))
        #expect(result.stderr.contains("missing.lua: error: cannot read"))
        #expect(try read("locked.lua", in: scratch) == "local  x=1\n")
    }

    @Test func anExecutableScriptKeepsItsModeAndALinkStaysALink() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write("#!/usr/bin/env lua\nprint( 1 )\n", "tool.lua", in: scratch)
        let path = scratch.url.appendingPathComponent("tool.lua").path
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        let link = scratch.url.appendingPathComponent("link.lua").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "tool.lua")
        #expect(try FlowpkgProcess.run(["fmt", "link.lua"], in: scratch.url).status == 0)
        #expect(try read("tool.lua", in: scratch) == "#!/usr/bin/env lua\nprint(1)\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o755)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "tool.lua")
    }

    @Test func standardInputToStandardOutputWithTheConfigurationOfItsPath() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write("indent_type = \"Spaces\"\n", "sub/stylua.toml", in: scratch)
        let result = try FlowpkgProcess.run(
            ["fmt", "--stdin-filepath", "sub/x.lua"], in: scratch.url, stdin: Data("do f() end".utf8))
        #expect(result.status == 0)
        #expect(result.stdout == "do\n    f()\nend\n")
    }

    @Test func styluaignoreAndRanges() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        try write("generated/\n", ".styluaignore", in: scratch)
        try write("local  a=1\n", "generated/g.lua", in: scratch)
        try write("local  a=1\nlocal  b=2\n", "r.lua", in: scratch)
        #expect(try FlowpkgProcess.run(["fmt"], in: scratch.url).status == 0)
        #expect(try read("generated/g.lua", in: scratch) == "local  a=1\n")
        try write("local  a=1\nlocal  b=2\n", "r.lua", in: scratch)
        #expect(
            try FlowpkgProcess.run(["fmt", "--range-start", "12", "--range-end", "20", "r.lua"], in: scratch.url).status
                == 0)
        #expect(try read("r.lua", in: scratch) == "local  a=1\nlocal b = 2\n")
    }
}
