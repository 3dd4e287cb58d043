import FlowTestSupport
import Foundation
import Testing

/// docs/editors.md's Neovim configuration, taken from the page verbatim and run as a user's
/// `init.lua` in the Neovim Debian ships (0.7.2), against the built `flowpkg lsp` found on PATH
/// as the configuration names it.
@Suite struct NeovimDocsTests {
    static let docs = CLITestFolder.url.deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/editors.md")

    /// The ```lua block after the page's **Neovim** heading, as written.
    static func documentedConfiguration() throws -> String {
        let page = try String(contentsOf: docs, encoding: .utf8)
        let heading = try #require(page.range(of: "**Neovim**"))
        let open = try #require(page.range(of: "```lua\n", range: heading.upperBound..<page.endIndex))
        let close = try #require(page.range(of: "\n```", range: open.upperBound..<page.endIndex))
        return String(page[open.upperBound..<close.lowerBound]) + "\n"
    }

    static let banner = """
        local M = {}

        --- Draws the frame.
        function M.frame(width, height)
          return width + height
        end

        return M

        """

    static let main = """
        local Banner = require "Banner"
        print(Banner.frame(1, 2), pirnt)

        """

    /// Drives the editor once the configuration has loaded Main.lua: waits for the findings,
    /// goes to the definition of `frame`, hovers it, then opens a Lua file of no project.
    static let driver = #"""
        local results = {}
        local ok, err = pcall(function()
          local main = vim.api.nvim_get_current_buf()
          vim.wait(30000, function() return #vim.diagnostic.get(main) > 0 end, 10)
          for _, d in ipairs(vim.diagnostic.get(main)) do
            table.insert(results, string.format('diagnostic %d:%d %s', d.lnum, d.col, tostring(d.code)))
          end
          -- On `frame` in `Banner.frame(1, 2)`, line 2.
          vim.api.nvim_win_set_cursor(0, { 2, 14 })
          local hover = vim.lsp.buf_request_sync(main, 'textDocument/hover',
            vim.lsp.util.make_position_params(), 30000)
          for _, answer in pairs(hover or {}) do
            if answer.result then
              table.insert(results, 'hover ' .. (answer.result.contents.value:gsub('\n', ' ')))
            end
          end
          vim.lsp.buf.definition()
          vim.wait(30000, function() return vim.api.nvim_buf_get_name(0):match('Banner%.lua$') ~= nil end, 10)
          local cursor = vim.api.nvim_win_get_cursor(0)
          table.insert(results, string.format('definition %s:%d:%d', vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0),
            ':t'), cursor[1], cursor[2]))
          table.insert(results, 'banner clients ' .. #vim.lsp.buf_get_clients(0))
          table.insert(results, 'all clients ' .. #vim.lsp.get_active_clients())
          vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('LOOSE')))
          table.insert(results, 'loose clients ' .. #vim.lsp.buf_get_clients(0))
        end)
        if not ok then table.insert(results, 'error ' .. tostring(err)) end
        table.insert(results, 'done')
        vim.fn.writefile(results, os.getenv('RESULTS'))
        vim.cmd('qa!')
        """#

    @Test func theDocumentedConfigurationWorksInDebiansNeovim() throws {
        let folder = try Scratch("nvim with space").url
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ path: String, _ text: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let configuration = try Self.documentedConfiguration()
        #expect(configuration.contains("flowpkg"))
        try write("config/init.lua", configuration)
        try write("config/driver.lua", Self.driver)
        try write(
            "project/flowpkg.json",
            #"{"name": "Demo", "identifier": "com.example.demo", "version": "1.0.0", "startModule": "Main"}"#)
        try write("project/Sources/Main.lua", Self.main)
        try write("project/Sources/Banner.lua", Self.banner)
        try write("loose/loose.lua", "print(1)\n")
        let results = folder.appendingPathComponent("results.txt")
        let errors = folder.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nvim")
        process.arguments = [
            "--headless", "-u", folder.appendingPathComponent("config/init.lua").path, "-i", "NONE", "-n",
            folder.appendingPathComponent("project/Sources/Main.lua").path,
            "-c",
            "luafile "
                + folder.appendingPathComponent("config/driver.lua").path.replacingOccurrences(
                    of: " ", with: "\\ "),
        ]
        var environment = ProcessInfo.processInfo.environment
        // `cmd = { "flowpkg", "lsp" }` as the page writes it: the built binary comes first on PATH.
        environment["PATH"] =
            FlowpkgProcess.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin")
        environment["RESULTS"] = results.path
        environment["LOOSE"] = folder.appendingPathComponent("loose/loose.lua").path
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("xdg").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg").path
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("xdg").path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        let lines = try String(contentsOf: results, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.contains("diagnostic 1:26 FP405"), "\(lines) \(stderr)")
        #expect(lines.contains { $0.hasPrefix("hover ") && $0.contains("function Banner.frame(width, height)") })
        #expect(lines.contains { $0.hasPrefix("hover ") && $0.contains("Draws the frame.") }, "\(lines)")
        // `function M.frame(` on line 4, the cursor on `frame` (byte column 11, 0-based).
        #expect(lines.contains("definition Banner.lua:4:11"), "\(lines) \(stderr)")
        // Banner.lua joined Main.lua's server: one client in all; a file of no project gets none.
        #expect(lines.contains("banner clients 1"), "\(lines)")
        #expect(lines.contains("all clients 1"), "\(lines)")
        #expect(lines.contains("loose clients 0"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("error") }, "\(lines)")
        #expect(lines.last == "done")
        #expect(!stderr.contains("Error"), "\(stderr)")
    }
}
