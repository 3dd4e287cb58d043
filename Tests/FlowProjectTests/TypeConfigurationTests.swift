import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// Issue 47: definition files from flowpkg.json's `types` folders and `.luarc.json`'s
/// `workspace.library`, and `.luarc.json`'s `diagnostics.globals`, `diagnostics.disable` and
/// `runtime.version`, as a lua-language-server user's project has them.
@Suite struct TypeConfigurationTests {
    private func project(_ files: [String: String], projectFile: String? = nil) throws -> URL {
        let root = try Scratch("types-config").url
        let json =
            projectFile
            ?? #"{"name": "T", "identifier": "com.example.t", "version": "1.0.0", "startModule": "Main"}"#
        for (path, text) in files.merging(["flowpkg.json": json], uniquingKeysWith: { a, _ in a }) {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    static let definitions = """
        ---@meta
        --- Sends a notification to the host.
        ---@param title string
        ---@param delay integer
        function notify(title, delay) end

        """

    @Test func typesFolderDefinitionsAreChecked() throws {
        let root = try project(
            [
                "types/host.lua": Self.definitions,
                "Sources/Main.lua": "notify(\"saved\", 5)\nnotify(\"saved\", \"soon\")\n",
            ],
            projectFile: #"""
                {"name": "T", "identifier": "com.example.t", "version": "1.0.0", "startModule": "Main",
                 "types": ["types"]}
                """#)
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Validator.validate(projectAt: root)
        #expect(report.diagnostics.map { $0.place(relativeTo: root) } == ["Sources/Main.lua:2:17"])
        #expect(report.diagnostics.first?.code == .argumentTypeMismatch)
    }

    @Test func luarcSettingsAreHonoured() throws {
        let luarc = """
            {
              // LuaLS allows comments.
              "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
              "runtime.version": "LuaJIT",
              "diagnostics": {"globals": ["vim"], "disable": ["redundant-return-value"]},
              "workspace.library": ["library", "${3rd}/luv/library"]
            }
            """
        let main = """
            ---@return integer
            local function one() return 1, 2 end
            print(vim.api, unpack({one()}), notify("x", "later"))

            """
        let root = try project([
            ".luarc.json": luarc, "library/host.lua": Self.definitions, "Sources/Main.lua": main,
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let codes = Validator.validate(projectAt: root).diagnostics.map(\.code.code)
        // vim, unpack and notify (the library's) are defined; FP903 is disabled; notify is checked.
        #expect(codes == ["FP902"])
    }

    @Test func aBrokenLuarcIsAWarningNamingItsPlace() throws {
        let root = try project([
            ".luarc.json": "{\n  \"diagnostics.globals\": [\"vim\",\n", "Sources/Main.lua": "print(1)\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Validator.validate(projectAt: root)
        let finding = try #require(report.diagnostics.first { $0.code == .unreadableLuaLSConfiguration })
        #expect(finding.place(relativeTo: root).hasPrefix(".luarc.json:3"))
        #expect(!report.hasErrors)
    }

    /// A class file of 10,000 classes, each the parent of the next in a ring, reads and ends.
    @Test func aLargeRecursiveMetaFileEnds() throws {
        var meta = "---@meta\n"
        for index in 0..<10_000 {
            meta += "---@class C\(index): C\((index + 1) % 10_000)\n---@field name string\n\n"
        }
        let root = try project(
            [
                "types/classes.lua": meta,
                "Sources/Main.lua":
                    "---@param c C1\nlocal function f(c) return c.nam end\nprint(f({ name = \"x\" }))\n",
            ],
            projectFile:
                #"{"name": "T", "identifier": "com.example.t", "version": "1.0.0", "startModule": "Main", "types": ["types"]}"#
        )
        defer { try? FileManager.default.removeItem(at: root) }
        let report = Validator.validate(projectAt: root)
        #expect(report.diagnostics.map(\.code) == [.unknownClassField])
        #expect(report.diagnostics.first?.hint == "did you mean 'name'?")
    }
}
