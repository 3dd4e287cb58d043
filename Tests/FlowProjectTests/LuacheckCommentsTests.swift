import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// Issue 34: luacheck's inline options apply to the lint classes, as luacheck reads them.
@Suite struct LuacheckCommentsTests {
    func codes(_ source: String) throws -> [String] {
        let root = try Scratch("inline").url
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data(#"{"name": "I", "identifier": "com.example.i", "version": "1.0.0"}"#.utf8)
            .write(to: root.appendingPathComponent("flowpkg.json"))
        try Data(source.utf8).write(to: root.appendingPathComponent("Sources/main.lua"))
        return Validator.validate(projectAt: root).diagnostics.map { "\($0.line ?? 0):\($0.code)" }
    }

    @Test func anOptionAtTheEndOfALineCoversThatLine() throws {
        let source =
            "local function f(a, b) return a end -- luacheck: ignore 212\nlocal function g(c) end\nreturn f, g\n"
        #expect(try codes(source) == ["2:FP422"])
        #expect(try codes("local function f(self) end -- luacheck: ignore 212/self\nreturn f\n") == [])
        #expect(try codes("local function f(x) end -- luacheck: ignore 212/self\nreturn f\n") == ["1:FP422"])
    }

    @Test func anOptionAloneCoversTheRestOfTheFileOrUpToPop() throws {
        #expect(try codes("-- luacheck: no unused\nlocal a = 1\nlocal function f(b) end\n") == [])
        let pushed = """
            -- luacheck: push ignore 211
            local a = 1
            -- luacheck: pop
            local b = 2

            """
        #expect(try codes(pushed) == ["4:FP421"])
        let long = "-- luacheck: max line length 200\nreturn '" + String(repeating: "x", count: 150) + "'\n"
        #expect(try codes(long) == [])
    }

    @Test func flowpkgsOwnCommentsSilenceLintCodesToo() throws {
        #expect(try codes("local a = 1 -- flowpkg: ignore FP421\n") == [])
        #expect(try codes("-- flowpkg: ignore-file FP421\nlocal a = 1\nlocal b = 2\n") == [])
    }
}

/// Issue 34: `.luacheckrc`'s options carry over to the lint classes.
@Suite struct LuacheckrcOptionsTests {
    func codes(_ files: [String: String]) throws -> [String] {
        let root = try Scratch("rc").url
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources/spec"), withIntermediateDirectories: true)
        try Data(#"{"name": "R", "identifier": "com.example.r", "version": "1.0.0"}"#.utf8)
            .write(to: root.appendingPathComponent("flowpkg.json"))
        for (path, text) in files { try Data(text.utf8).write(to: root.appendingPathComponent(path)) }
        return Validator.validate(projectAt: root).diagnostics.map {
            "\($0.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""):\($0.line ?? 0):\($0.code)"
        }.sorted()
    }

    static let module = """
        local unused = 1
        local function f(a) return 1 end
        return f, '\(String(repeating: "x", count: 100))'

        """

    @Test func withoutAConfigurationLuacheckDefaultsApply() throws {
        #expect(try codes(["Sources/main.lua": Self.module]) == ["main.lua:1:FP421", "main.lua:2:FP422"])
    }

    @Test func topLevelOptionsApply() throws {
        let rc = "ignore = {\"211\"}\nunused_args = false\nmax_line_length = 100\n"
        #expect(try codes([".luacheckrc": rc, "Sources/main.lua": Self.module]) == ["main.lua:3:FP476"])
        #expect(
            try codes([".luacheckrc": "only = {\"212\"}\n", "Sources/main.lua": Self.module]) == ["main.lua:2:FP422"])
        #expect(try codes([".luacheckrc": "unused = false\n", "Sources/main.lua": Self.module]) == [])
    }

    @Test func filesSectionsApplyToTheirFiles() throws {
        let rc = "files[\"Sources/spec\"] = { ignore = { \"21\" } }\n"
        let found = try codes([
            ".luacheckrc": rc, "Sources/main.lua": Self.module, "Sources/spec/main_spec.lua": Self.module,
        ])
        #expect(found == ["main.lua:1:FP421", "main.lua:2:FP422"])
    }

    @Test func readGlobalsMayBeReadButNotSet() throws {
        let found = try codes([
            ".luacheckrc": "read_globals = { \"host\" }\nglobals = { \"shared\" }\n",
            "Sources/main.lua": "host = 1\nshared = 2\nreturn host, shared\n",
        ])
        #expect(found == ["main.lua:1:FP411"])
    }
}
