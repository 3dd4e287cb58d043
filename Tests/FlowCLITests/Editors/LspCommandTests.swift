import FlowTestSupport
import Foundation
import Testing

/// `flowpkg lsp` as editors run it: the built binary over its stdin and stdout, and Neovim's
/// own LSP client.
@Suite struct LspCommandTests {
    private func makeProject() throws -> URL {
        let root = try Scratch("lsp-cli").url
            .standardizedFileURL
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write(
            "flowpkg.json",
            #"{"name": "Demo", "identifier": "com.example.demo", "version": "1.0.0", "startModule": "Main"}"#)
        try write("Sources/Main.lua", "local util = require \"app.util\"\nprint(util, pirnt)\n")
        try write("Sources/app/util.lua", "return {}\n")
        return root
    }

    private func frame(_ json: String) -> Data {
        Data("Content-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8)
    }

    @Test func theBinaryAnswersMalformedInputAndExitsAfterShutdown() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        var input = Data()
        input += frame(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"\#(root.absoluteString)","capabilities":{}}}"#
        )
        input += frame("{not json")
        input += frame(#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#)
        input += frame(#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#)
        input += frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
        let result = try FlowpkgProcess.run(["lsp"], stdin: input)
        #expect(result.status == 0)
        let messages = try Self.messages(in: Data(result.stdout.utf8))
        func error(_ message: [String: Any]) -> Int? { (message["error"] as? [String: Any])?["code"] as? Int }
        #expect(messages.first { $0["id"] as? Int == 1 }?["result"] is [String: Any])
        #expect(messages.contains { $0["id"] is NSNull && error($0) == -32700 })
        #expect(messages.contains { $0["id"] as? Int == 2 && error($0) == -32601 })
        #expect(messages.contains { $0["id"] as? Int == 3 && $0.keys.contains("result") })
        // validate's finding in Main.lua, published after initialize's result.
        let published = messages.firstIndex { $0["method"] as? String == "textDocument/publishDiagnostics" }
        #expect(published.map { $0 > 0 } == true)
        #expect(result.stdout.contains("'pirnt' is not defined"))
    }

    /// The JSON messages of a Content-Length-framed stream.
    static func messages(in data: Data) throws -> [[String: Any]] {
        var messages: [[String: Any]] = []
        var rest = data[...]
        let separator = Data("\r\n\r\n".utf8)
        while let end = rest.range(of: separator) {
            let header = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self)
            let length = try #require(Int(header.replacingOccurrences(of: "Content-Length: ", with: "")))
            let body = rest[end.upperBound..<(end.upperBound + length)]
            messages.append(try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any]))
            rest = rest[(end.upperBound + length)...]
        }
        return messages
    }

    @Test func theBinaryEndsCleanlyWhenTheClientDisappears() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = frame(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"\#(root.absoluteString)","capabilities":{}}}"#
        )
        let result = try FlowpkgProcess.run(["lsp"], stdin: input)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
    }

    @Test func neovimShowsTheDiagnosticAndGoesToTheRequiredModule() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = root.appendingPathComponent("client.lua")
        let output = root.appendingPathComponent("results.txt")
        try Data(Self.neovimScript.utf8).write(to: script)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nvim")
        process.arguments = ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile \(script.path)"]
        var environment = ProcessInfo.processInfo.environment
        environment["FLOWPKG"] = FlowpkgProcess.executable.path
        environment["PROJECT"] = root.path
        environment["RESULTS"] = output.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let results = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(results.contains { $0.hasPrefix("diagnostic 1:12 FP405 'pirnt' is not defined") }, "\(results)")
        #expect(
            results.contains("definition \(root.appendingPathComponent("Sources/app/util.lua").path)"), "\(results)")
        #expect(results.last == "done")
    }

    /// docs/editors.md's Neovim configuration, as a user puts it in init.lua, on Debian's Neovim
    /// (0.7.2): opening a module of the project starts `flowpkg lsp` and shows its diagnostics.
    @Test func theDocumentedNeovimConfigurationWorks() throws {
        let root = try makeProject()
        defer { try? FileManager.default.removeItem(at: root) }
        let page = try String(
            contentsOf: CLITestFolder.url.deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs/editors.md"), encoding: .utf8)
        let start = try #require(page.range(of: "```lua\nlocal flowpkg_clients"))
        let end = try #require(page.range(of: "```", range: start.upperBound..<page.endIndex))
        let configuration = String(page[page.index(start.lowerBound, offsetBy: 7)..<end.lowerBound])
        let initFile = root.appendingPathComponent("init.lua")
        try Data(configuration.utf8).write(to: initFile)
        let output = root.appendingPathComponent("results.txt")
        let check = root.appendingPathComponent("check.lua")
        try Data(
            #"""
            local results = {}
            local ok, err = pcall(function()
              vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('PROJECT') .. '/Sources/Main.lua'))
              local buffer = vim.api.nvim_get_current_buf()
              vim.wait(30000, function() return #vim.diagnostic.get(buffer) > 0 end, 10)
              for _, d in ipairs(vim.diagnostic.get(buffer)) do
                table.insert(results, string.format('diagnostic %d:%d %s', d.lnum, d.col, tostring(d.code)))
              end
            end)
            if not ok then table.insert(results, 'error ' .. tostring(err)) end
            table.insert(results, 'done')
            vim.fn.writefile(results, os.getenv('RESULTS'))
            vim.cmd('qa!')
            """#.utf8
        ).write(to: check)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nvim")
        process.arguments = ["--headless", "-u", initFile.path, "-i", "NONE", "-n", "-c", "luafile \(check.path)"]
        var environment = ProcessInfo.processInfo.environment
        // `flowpkg` on PATH, as the configuration runs it.
        environment["PATH"] =
            FlowpkgProcess.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin")
        environment["PROJECT"] = root.path
        environment["RESULTS"] = output.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let results = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(results.contains("diagnostic 1:12 FP405"), "\(results)")
        #expect(results.last == "done")
        #expect(!results.contains { $0.hasPrefix("error") }, "\(results)")
    }

    /// Neovim 0.7's client (Debian 12): start_client and buf_attach_client; vim.lsp.start came in 0.8.
    static let neovimScript = #"""
        local results = {}
        local function finish()
          table.insert(results, 'done')
          vim.fn.writefile(results, os.getenv('RESULTS'))
          vim.cmd('qa!')
        end
        local ok, err = pcall(function()
          local root = os.getenv('PROJECT')
          local client = vim.lsp.start_client({ cmd = { os.getenv('FLOWPKG'), 'lsp' }, root_dir = root })
          vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/Sources/Main.lua'))
          local buffer = vim.api.nvim_get_current_buf()
          vim.lsp.buf_attach_client(buffer, client)
          vim.wait(30000, function() return #vim.diagnostic.get(buffer) > 0 end, 10)
          for _, d in ipairs(vim.diagnostic.get(buffer)) do
            table.insert(results, string.format('diagnostic %d:%d %s %s', d.lnum, d.col, tostring(d.code),
              (d.message:gsub('\n', ' '))))
          end
          -- On "app.util" in line 1, then go to definition.
          vim.api.nvim_win_set_cursor(0, { 1, 25 })
          vim.lsp.buf.definition()
          vim.wait(30000, function() return vim.api.nvim_buf_get_name(0):match('util%.lua$') ~= nil end, 10)
          table.insert(results, 'definition ' .. vim.api.nvim_buf_get_name(0))
        end)
        if not ok then table.insert(results, 'error ' .. tostring(err)) end
        finish()
        """#
}
