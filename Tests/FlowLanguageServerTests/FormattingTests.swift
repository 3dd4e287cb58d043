import Foundation
import Testing

/// `textDocument/formatting` and `rangeFormatting` through a real connection: the open
/// buffer's text (not the file on disk), the StyLua configuration found for the file.
@Suite struct FormattingTests {
    func edits(_ response: [String: Any]) -> [(range: [String: Any], text: String)] {
        (response["result"] as? [[String: Any]] ?? []).map {
            ($0["range"] as? [String: Any] ?? [:], $0["newText"] as? String ?? "")
        }
    }

    @Test func theOpenBufferIsFormattedWithItsConfiguration() throws {
        let project = try SampleProject()
        defer { project.remove() }
        try project.write("stylua.toml", "indent_type = \"Spaces\"\nindent_width = 2\n")
        let server = ServerConnection()
        try server.initialize(root: project.root)
        let file = project.url("Sources/Fmt.lua")
        try project.write("Sources/Fmt.lua", "return 1\n")
        server.open(file, "if  x then print('a') end")
        let whole = try server.request(
            "textDocument/formatting",
            ["textDocument": ["uri": file.absoluteString], "options": ["tabSize": 4, "insertSpaces": false]])
        let result = edits(whole)
        #expect(result.count == 1)
        #expect(result.first?.text == "if x then\n  print(\"a\")\nend\n")
        let end = result.first?.range["end"] as? [String: Any]
        #expect(end?["line"] as? Int == 0 && end?["character"] as? Int == 25)

        server.open(file, "local  a=1\nlocal  b=2\n", version: 2)
        let partial = try server.request(
            "textDocument/rangeFormatting",
            [
                "textDocument": ["uri": file.absoluteString],
                "range": ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": 3]],
            ])
        #expect(edits(partial).first?.text == "local  a=1\nlocal b = 2\n")

        server.open(file, "local y =", version: 3)
        let broken = try server.request("textDocument/formatting", ["textDocument": ["uri": file.absoluteString]])
        #expect(edits(broken).isEmpty)
        _ = server.closeInput()
    }
}
