import FlowTestSupport
import FlowProject
import FlowTemplates
import FlowPackage
import FlowRuntime
import Foundation
import Testing

/// The bundled templates and the Samples compile with the real Lua 5.4 compiler, and
/// WordsTerminal runs under stock `lua5.4` with a stand-in for flowpkg's host API.
@Suite struct TemplateSamplesTests {
    @Test func everyRenderedLuaFileCompiles() throws {
        let lua = try LuaState()
        for template in try TemplateCatalog.bundled().templates {
            for given in [[:], ["startModule": "App.Start"]] {
                let project = try NewProject.plan(
                    template: template, destination: URL(fileURLWithPath: "/nonexistent/Demo"),
                    given: given)
                for file in project.files where file.path.hasSuffix(".lua") {
                    #expect(throws: Never.self, "\(template.name): \(file.path)") {
                        try lua.check(String(decoding: file.bytes, as: UTF8.self), chunkName: file.path)
                    }
                }
            }
        }
    }

    @Test(arguments: ["WordsTerminal", "WordsCollection"])
    func sampleModulesCompile(sample: String) throws {
        let lua = try LuaState()
        let sources = checkoutRoot.appendingPathComponent("Samples/\(sample)/Sources")
        let names = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".lua") }
        #expect(names.count == 3)
        for name in names {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            #expect(throws: Never.self, "\(sample)/\(name)") { try lua.check(text, chunkName: name) }
        }
    }

    /// Runs WordsTerminal with stock lua5.4: `getResource` and `addMessageHandler` come from a
    /// small host stand-in that reads Resources/ the way flowpkg run does.
    func runWordsTerminal(columns: String?) throws -> String {
        let scratch = try TemplateScratch()
        defer { scratch.remove() }
        let host = scratch.url.appendingPathComponent("host.lua")
        try Data(
            StockLuaHost.script(startModule: "WordsController").utf8
        ).write(to: host)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["lua5.4", host.path, checkoutRoot.appendingPathComponent("Samples/WordsTerminal").path]
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = columns
        process.environment = environment
        let output = scratch.url.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        #expect(process.terminationStatus == 0)
        return try String(contentsOf: output, encoding: .utf8)
    }

    @Test(arguments: [("80", 80), ("40", 40), (nil, 80), ("not a number", 80)])
    func wordsTerminalWrapsAtTheTerminalWidth(columns: String?, width: Int) throws {
        let output = try runWordsTerminal(columns: columns)
        #expect(output == (try runWordsTerminal(columns: columns)), "the output is deterministic")
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasSuffix("\(width) columns") == true)

        // Cells are the lines between the header and the footer, three lines per row.
        let cellLines = Array(lines.dropFirst(2).prefix { !$0.isEmpty })
        #expect(cellLines.count % 3 == 0 && !cellLines.isEmpty)
        for line in cellLines { #expect(line.count <= width, "'\(line)' is wider than \(width)") }
        // Every row but the last is justified to the full width.
        for row in stride(from: 0, to: cellLines.count - 3, by: 3) { #expect(cellLines[row].count == width) }
        #expect(lines.contains("\(cellLines.count / 3) rows"))

        // Every word of the text appears, in order.
        let text = try String(
            contentsOf: checkoutRoot.appendingPathComponent("Samples/WordsTerminal/Resources/words.txt"),
            encoding: .utf8)
        let expected = text.split { !($0.isLetter || $0.isNumber || $0 == "'") }.map(String.init)
        var shown: [String] = []
        for row in stride(from: 1, to: cellLines.count, by: 3) {
            shown += cellLines[row].split { "│┃║ ".contains($0) }.map(String.init)
        }
        #expect(shown == expected)
        #expect(lines.first == "\(expected.count) words from words.txt, \(width) columns")
    }

    /// Lines Lua printed, collected from the context's thread.
    final class PrintedLines: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""

        func append(_ line: String) { lock.withLock { text += line + "\n" } }

        /// How many times WordsTerminal has drawn: its header line starts every drawing.
        var drawings: Int { lock.withLock { text.components(separatedBy: " from words.txt, ").count - 1 } }
    }

    /// Live development: a reloaded layout or cell module draws the words again, once; a
    /// reloaded controller draws with its new code and the old one stands down.
    @Test func wordsTerminalDrawsAgainWhenAModuleIsReloaded() throws {
        let target = try RunTarget.open(checkoutRoot.appendingPathComponent("Samples/WordsTerminal"), identifier: nil)
        let printed = PrintedLines()
        let context = try LuaContext(
            name: "words", packageIdentifier: target.identifier, loader: target.loader,
            options: LuaContext.Options(print: { printed.append($0) }))
        defer { context.terminate() }

        _ = try context.loadModule(target.startModule)
        #expect(printed.drawings == 1)
        #expect(try context.reloadModule(ModuleName("FlowLayout")))
        #expect(printed.drawings == 2)
        #expect(try context.reloadModule(ModuleName("WordsController")))
        #expect(printed.drawings == 3)
        #expect(try context.reloadModule(ModuleName("WordCell")))
        #expect(printed.drawings == 4)
    }
}
