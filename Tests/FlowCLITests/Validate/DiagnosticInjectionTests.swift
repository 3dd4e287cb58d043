import FlowTestSupport
import Foundation
import Testing

/// validate and export print every part of a diagnostic escaped in text mode (issue 38): file
/// names, Lua's syntax-error tokens, `.luacheckrc` messages and flowpkg.json values could set
/// the terminal's title, clear it, or forge `file:line: error:` lines in a CI log.
@Suite struct DiagnosticInjectionTests {
    static func hostileProject() throws -> URL {
        let root = try Scratch("inject").url
        let sources = root.appendingPathComponent("Sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try
            "{\"name\": \"App\", \"identifier\": \"com.example.app\", \"version\": \"1.0\\u001b]0;title\\u0007\", \"startModule\": \"main\"}"
            .write(to: root.appendingPathComponent("flowpkg.json"), atomically: true, encoding: .utf8)
        try "local s = \"\u{1B}[2J\rforged.lua:1: error: fake [FP101]\n".write(
            to: sources.appendingPathComponent("main.lua"), atomically: true, encoding: .utf8)
        try "return 1\n".write(
            to: sources.appendingPathComponent("bad\u{1B}[31m\nforged2.lua:9: error: x.lua"), atomically: true,
            encoding: .utf8)
        try "error('\\27]0;pwned\\7\\rforged3.lua:1: error: nope\\0')\n".write(
            to: root.appendingPathComponent(".luacheckrc"), atomically: true, encoding: .utf8)
        return root
    }

    @Test(arguments: [["validate"], ["export", "-o", "x.luapkg"], ["validate", "--format", "github"]])
    func noControlCharacterReachesTheOutput(command: [String]) throws {
        let root = try Self.hostileProject()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try FlowpkgProcess.run([command[0], root.path] + command.dropFirst(), in: root)
        #expect(result.status == 1)
        let output = result.stdout + result.stderr
        for control in ["\u{1B}", "\u{07}", "\r", "\u{0}"] {
            #expect(!output.contains(control), "\(command): \(output.debugDescription)")
        }
        for line in output.split(separator: "\n") {
            #expect(!line.hasPrefix("forged"), "\(command): a forged line: \(line)")
        }
        // What was there is shown, escaped.
        #expect(output.contains("\\u{1B}"), "\(output)")
    }
}
