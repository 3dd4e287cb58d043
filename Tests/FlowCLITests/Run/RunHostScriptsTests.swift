import FlowTestSupport
import Foundation
import Testing

/// Issue 24's proof: a project shaped like real code bases (prosody's `*.lib.lua` scripts, a
/// widelands-style `*.wmf/` folder loaded by path, modules registered at run time, host names
/// by glob, a `.luacheckrc`) validates with no error, and `flowpkg run` of the folder, of its
/// package and stock `lua5.4` print the same. Finalizers run before `flowpkg run` exits.
@Suite struct RunHostScriptsTests {
    static let files: [String: String] = [
        "flowpkg.json": """
        {"name": "Hosted", "identifier": "com.example.hosted", "version": "1.0.0", "startModule": "main",
         "globals": ["host_*"], "externalModules": ["*_native"]}

        """,
        // luacheck's own options: prosody's and wesnoth's globals, busted's in the specs.
        ".luacheckrc": """
        std = "lua54"
        read_globals = { "wesnoth", hosts = { fields = { "get" } } }
        files["Sources/spec"].std = "+busted"
        -- computed, and `new_globals` (which replaces `globals` in its table, as luacheck has it)
        local extra = { "prosody", "module" }
        for _, name in ipairs({ "campaign_state" }) do extra[#extra + 1] = name end
        new_globals = extra

        """,
        "Sources/main.lua": """
        prosody = { secret = "s3cret", paths = {} }
        wesnoth, hosts = { version = "1.16" }, { get = function() return "example.org" end }
        -- modules registered at run time, as lgi and bundled programs do
        package.preload["generated.config"] = function(name) return { name = name } end
        package.loaded.bytes = { size = 4 }
        table.insert(package.searchers, function(name)
          if name:match("^virtual%.") then return function() return "virtual " .. name end end
          return "no virtual module '" .. name .. "'"
        end)
        local password = dofile("modules/muc/password.lib.lua")
        print("password", password.check("s3cret"), password.check("guess"))
        local campaign = assert(loadfile("campaigns/atl01.wmf/scripting/init.lua"))
        print("campaign", campaign("atl01"))
        print("again", dofile("./campaigns/atl01.wmf/scripting/init.lua"))
        print("registered", require("generated.config").name, require("bytes").size, require("virtual.thing"))
        local util, found = require("util")
        print("util", util.twice(21), found:match("[^/]*$"))
        print("missing", pcall(dofile, "campaigns/none.wmf/init.lua"))
        print("host", type(host_api), campaign_state)
        local function late() return require("modules.muc.password.lib") end
        print("dotted", (pcall(late)))

        """,
        "Sources/util.lua": "return { twice = function(x) return 2 * x end }\n",
        "Sources/modules/muc/password.lib.lua": """
        -- prosody's modules/muc/password.lib.lua shape: loaded by path, never required
        local lib = {}
        function lib.check(guess) return guess == prosody.secret end
        return lib

        """,
        "Sources/campaigns/atl01.wmf/scripting/init.lua": """
        #!/usr/bin/env lua5.4
        local name = ...
        campaign_state = (campaign_state or 0) + 1
        return (name or "no name") .. " on " .. wesnoth.version .. " for " .. hosts.get(), campaign_state

        """,
        "Sources/spec/util_spec.lua": """
        describe("util", function() it("doubles", function() assert(require("util").twice(2) == 4) end) end)

        """,
    ]

    @Test func validateRunOfFolderAndPackageAndStockLuaAgree() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("Hosted")
        for (path, text) in Self.files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let sources = root.appendingPathComponent("Sources")

        let validate = try FlowpkgProcess.run(["validate", root.path, "--format", "json"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(!validate.stdout.contains("\"error\""), "\(validate.stdout)")
        // No FP201 for the dotted names, no FP401 for the registered modules, no FP405 for the
        // globbed or .luacheckrc globals; only the dotted require gets its warning.
        for code in ["FP201", "FP401", "FP405"] { #expect(!validate.stdout.contains(code), "\(validate.stdout)") }
        #expect(validate.stdout.contains("does not reach the script 'modules/muc/password.lib.lua'"))

        let package = scratch.url.appendingPathComponent("Hosted.luapkg")
        let export = try FlowpkgProcess.run(["export", root.path, "-o", package.path])
        #expect(export.status == 0, "\(export.stderr)")
        // Sources/spec/util_spec.lua is a spec: never packaged (issue 45).
        #expect(export.stdout.contains("2 modules, 0 resources, 2 scripts, "), "\(export.stdout)")
        let list = try FlowpkgProcess.run(["inspect", package.path, "--list"])
        #expect(list.stdout.contains("  scripts:      2 ("), "\(list.stdout)")
        #expect(list.stdout.contains("scripts/modules/muc/password.lib.lua"), "\(list.stdout)")
        #expect(list.stdout.contains("scripts/campaigns/atl01.wmf/scripting/init.lua"))

        // Relative paths are relative to the sources folder in flowpkg, to the current one in lua5.4.
        let environment = ["LUA_PATH": "?.lua;?/init.lua"]
        let runs = ParallelRuns.map([0, 1, 2]) { mode -> ProgramRun.Result in
            switch mode {
            case 0:
                return ProgramRun.run(ProgramRun.env, ["lua5.4", "main.lua"], in: sources, environment: environment)
            case 1:
                return ProgramRun.run(FlowpkgProcess.executable, ["run", ".."], in: sources, environment: environment)
            default:
                return ProgramRun.run(
                    FlowpkgProcess.executable, ["run", package.path], in: sources, environment: environment)
            }
        }
        let stock = runs[0]
        #expect(stock.status == 0, "\(stock.stderr)")
        #expect(stock.stdout.contains("campaign\tatl01 on 1.16 for example.org\t1"), "\(stock.stdout)")
        #expect(stock.stdout.contains("registered\tgenerated.config\t4\tvirtual virtual.thing"))
        for (name, run) in zip(["folder", "package"], runs.dropFirst()) {
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(run.stdout == stock.stdout, "\(name) printed:\n\(run.stdout)\nlua5.4 printed:\n\(stock.stdout)")
        }
    }

    @Test func aScriptWhoseBytesChangedIsRefusedWhenLoaded() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "Damaged",
            modules: [
                "main.lua": """
                print("before")
                print(pcall(dofile, "lib/tool.lib.lua"))
                print("after")

                """,
                "lib/tool.lib.lua": "return 'tool'\n",
            ])
        let package = try fixture.package(root, to: "Damaged.luapkg")
        try fixture.corrupt(package, entry: "scripts/lib/tool.lib.lua")
        let run = try FlowpkgProcess.run(["run", package.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("before\nfalse\t"), "\(run.stdout)")
        #expect(run.stdout.contains("scripts/lib/tool.lib.lua"))
        #expect(run.stdout.contains("sha256"))
        #expect(run.stdout.hasSuffix("after\n"))
        let verify = try FlowpkgProcess.run(["verify", package.path])
        #expect(verify.status == 1)
        #expect(
            verify.stdout.contains("scripts/lib/tool.lib.lua") || verify.stderr.contains("scripts/lib/tool.lib.lua"))
    }

    /// A `__gc` finalizer and a to-be-closed variable write files; every one of 50 runs must
    /// find both once `flowpkg run` has exited (lua5.4 closes its state at exit; before, the
    /// process could exit while the state was still being closed on the context's thread).
    @Test func finalizersRunBeforeEveryExit() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project(
            "Finalizers",
            modules: [
                "main.lua": """
                local folder = ...
                local function note(name)
                  local file = assert(io.open(folder .. "/" .. name, "w"))
                  file:write(name, "\\n")
                  file:close()
                end
                setmetatable({}, { __gc = function() note("finalized") end })
                local guard <close> = setmetatable({}, { __close = function() note("closed") end })
                print("ran")

                """
            ])
        let lone = fixture.url.appendingPathComponent("lone.lua")
        try fixture.write(
            lone,
            """
            local folder = ...
            setmetatable({}, { __gc = function()
              local file = assert(io.open(folder .. "/finalized", "w")); file:write("finalized\\n"); file:close()
            end })
            do
              local guard <close> = setmetatable({}, { __close = function()
                local file = assert(io.open(folder .. "/closed", "w")); file:write("closed\\n"); file:close()
              end })
              os.exit(0, true)
            end

            """)
        let folders = (0..<50).map { fixture.url.appendingPathComponent("run\($0)") }
        for folder in folders { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let results = ParallelRuns.map(Array(folders.enumerated())) { index, folder in
            // Most runs host the project; every fifth is a lone file that exits with os.exit(0, true).
            let arguments = index % 5 == 4 ? ["run", lone.path, folder.path] : ["run", root.path, "--", folder.path]
            return ProgramRun.run(FlowpkgProcess.executable, arguments, in: fixture.url, environment: [:])
        }
        for (folder, result) in zip(folders, results) {
            #expect(result.status == 0, "\(result.stderr)")
            for name in ["finalized", "closed"] {
                let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                #expect(text == name + "\n", "\(folder.lastPathComponent): no \(name) file")
            }
        }
    }

    /// `arg[-1]` is the flowpkg binary, and a lone file runs as `lua5.4 FILE.lua ARGS` would,
    /// so a program can start another Lua with it (Penlight's `app.lua()`).
    @Test func argMinusOneStartsAnotherLua() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let child = fixture.url.appendingPathComponent("child.lua")
        try fixture.write(child, "print('child', arg[0], ...)\n")
        try fixture.project(
            "Parent",
            modules: [
                "main.lua": """
                local command = string.format("%q %q one two", arg[-1], ...)
                local pipe = assert(io.popen(command))
                io.write(pipe:read("a"))
                print(pipe:close())
                print(arg[0], arg[-2])
                local version = assert(io.popen(string.format("%q -v", arg[-1])))
                io.write(version:read("a"))
                version:close()
                local evaluated = assert(io.popen(string.format("%q -e %q", arg[-1], "print(1 + 1)")))
                io.write(evaluated:read("a"))
                evaluated:close()

                """
            ])
        let run = try FlowpkgProcess.run(["run", "Parent", "--", child.path], in: fixture.url)
        #expect(run.status == 0, "\(run.stderr)")
        let banner = ProgramRun.run(ProgramRun.env, ["lua5.4", "-v"], in: fixture.url, environment: [:]).stdout
        #expect(
            run.stdout == "child\t\(child.path)\tone\ttwo\ntrue\texit\t0\nParent/Sources/main.lua\tnil\n\(banner)2\n",
            "\(run.stdout)")
    }
}
