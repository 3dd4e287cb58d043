import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// Issue 46: every `.luacheckrc` option and form luacheck 1.1 documents means what it means to
/// luacheck. Each case is a small tree with its configuration; validate's findings and
/// luacheck's own (Debian's lua-check, run in the same folder) are compared on file:line:code.
@Suite struct LuacheckrcFidelityTests {
    static let project = #"{"name": "R", "identifier": "com.example.r", "version": "1.0.0", "sources": ["."]}"#

    /// flowpkg's and luacheck's findings on the same tree, as sorted `file:line:code` lines.
    static func both(_ files: [String: String]) throws -> (flowpkg: [String], luacheck: [String]) {
        let root = try RealCodeRulesTests.project(files, json: project)
        defer { try? FileManager.default.removeItem(at: root) }
        let numbers = Dictionary(
            DiagnosticCodes.byLuacheckNumber.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        let flowpkg = Validator.validate(projectAt: root).diagnostics.compactMap { diagnostic -> String? in
            let number = diagnostic.code == .undefinedGlobal ? 113 : numbers[diagnostic.code]
            guard let number, let line = diagnostic.line else { return nil }
            var file = String(diagnostic.place(relativeTo: root).split(separator: ":").first ?? "")
            if file.hasPrefix("./") { file.removeFirst(2) }
            return "\(file):\(line):\(number)"
        }
        return (flowpkg.sorted(), try luacheck(in: root))
    }

    static func luacheck(in root: URL) throws -> [String] {
        let output = try InstalledLuacheck.output(["--no-cache", "--formatter", "plain", "--codes", "."], in: root)
        return output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 3)
            guard parts.count == 4, let open = parts[3].range(of: "(W") else { return nil }
            let number = parts[3][open.upperBound...].prefix(3)
            return "\(parts[0]):\(parts[1]):\(number)"
        }.sorted()
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var files: [String: String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "exclude_files and include_files",
            files: [
                ".luacheckrc": "include_files = {'src', 'spec/*.lua'}\nexclude_files = {'src/vendor'}\n",
                "src/a.lua": "x = 1\n", "src/vendor/b.lua": "y = 1\n", "spec/c.lua": "z = 1\n",
                "spec/deep/d.lua": "w = 1\n", "bench/e.lua": "v = 1\n",
            ]),
        Case(
            name: "files glob with a partial std, and luacheck's default spec std",
            files: [
                ".luacheckrc": "files['test/**/*.lua'] = { std = '+busted' }\n",
                "test/unit/a.lua": "describe('x', function() it('y', function() end) end)\n",
                "spec/b_spec.lua": "describe('x', function() end)\n", "main.lua": "describe('x')\n",
            ]),
        Case(
            name: "std min and max+busted",
            files: [
                ".luacheckrc": "std = 'min'\nfiles['b.lua'] = { std = 'max+busted' }\n",
                "a.lua": "print(utf8.char(72), unpack({}))\n", "b.lua": "print(utf8.char(72), unpack({}), it)\n",
            ]),
        Case(
            name: "stds definitions",
            files: [
                ".luacheckrc":
                    "stds.host = { read_globals = { 'hostapi' }, globals = { 'hoststate' } }\nstd = 'lua54+host'\n",
                "a.lua": "hoststate = hostapi.make()\nprint(other)\n",
            ]),
        Case(
            name: "ignore, enable and only with code/name patterns",
            files: [
                ".luacheckrc": """
                ignore = { '212/self', '21[13]', 'unused_.*' }
                enable = { '211/keep_.*' }
                files['b.lua'] = { only = { '1' } }
                """,
                "a.lua": """
                local t = {}
                function t:m(a) local unused_x, keep_y, z = 1, 2, 3 return a end
                for i = 1, 2 do end
                local function f(q) end
                return t, f
                """,
                "b.lua": "local unused = 1\nx = 2\n",
            ]),
        Case(
            name: "redefined = false and unused_args = false",
            files: [
                ".luacheckrc": "redefined = false\nunused_args = false\n",
                "a.lua": """
                local a = 1
                local a = 2
                local function f(x, y) for i = 1, 2 do local x = 3 print(x) end y = 1 return a end
                for k, v in pairs({}) do end
                return f
                """,
            ]),
        Case(
            name: "not_globals",
            files: [".luacheckrc": "not_globals = { 'print', 'rawlen' }\n", "a.lua": "print(rawlen({}), type(1))\n"]),
        Case(
            name: "max_line_length = false with a per-file override",
            files: [
                ".luacheckrc": "max_line_length = false\nfiles['short.lua'] = { max_line_length = 90 }\n",
                "long.lua": "return '" + String(repeating: "x", count: 150) + "'\n",
                "short.lua": "return '" + String(repeating: "y", count: 100) + "'\n",
            ]),
        Case(
            name: "allow_defined_top",
            files: [
                ".luacheckrc": "allow_defined_top = true\n",
                "a.lua":
                    "Game = {}\nfunction Game.start() end\nfunction Game:stop() end\nlocal function f() Late = 1 end\nreturn f\n",
            ]),
        Case(
            name: "the return form and the files table form",
            files: [
                ".luacheckrc": "return { globals = { 'hostapi' }, files = { ['spec'] = { std = '+busted' } } }\n",
                "a.lua": "print(hostapi, describe)\n", "spec/s.lua": "describe('x', function() end)\n",
            ]),
        Case(
            name: "inline ignore of a code with a name",
            files: [
                "a.lua":
                    "debug.getinfo = nil -- luacheck: ignore 122/debug\nstring.format = nil -- luacheck: ignore 122/debug\n"
            ]),
    ]

    @Test(arguments: cases)
    func agreesWithLuacheck(_ test: Case) throws {
        try #require(
            InstalledLuacheck.isInstalled,
            "luacheck is not installed: run FLOWPKG_SETUP_TEST_TOOLS=1 bash .ci/setup")
        let found = try Self.both(test.files)
        #expect(!found.luacheck.isEmpty || test.name.hasPrefix("exclude"), "luacheck found nothing to compare")
        #expect(found.flowpkg == found.luacheck)
    }
}
