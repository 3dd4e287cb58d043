import FlowTestSupport
import Foundation
import Testing

/// What `flowpkg new` makes is a real project: every template, with its defaults and with a
/// dotted start module, validates with no errors and no warnings and exports a package that
/// verifies; so do both Samples.
@Suite struct NewEndToEndTests {
    static let checkout = CLITestFolder.url.deletingLastPathComponent()
        .deletingLastPathComponent()

    func summary(of result: FlowpkgProcess.Result) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["summary"] as? [String: Int] ?? [:]
    }

    @Test(arguments: ["console-app", "empty-ios-app", "lua-library"])
    func everyTemplateMakesAProjectThatValidates(template: String) throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        for (folder, flags) in [
            ("Plain", [String]()), ("Dotted", ["--name", "Dotted App", "--start-module", "App.Start"]),
        ] {
            let created = try FlowpkgProcess.run(["new", folder, "--template", template] + flags, in: scratch.url)
            #expect(created.status == 0, "\(created.stderr)")
            let validated = try FlowpkgProcess.run(["validate", folder, "--format", "json"], in: scratch.url)
            #expect(validated.status == 0, "\(template) \(folder): \(validated.stdout)")
            let counts = try summary(of: validated)
            #expect(counts["errors"] == 0 && counts["warnings"] == 0, "\(template) \(folder): \(validated.stdout)")
            #expect((counts["modules"] ?? 0) > 0)

            let package = "\(folder).luapkg"
            let exported = try FlowpkgProcess.run(["export", folder, "-o", package], in: scratch.url)
            #expect(exported.status == 0, "\(template) \(folder): \(exported.stderr)")
            let verified = try FlowpkgProcess.run(["verify", package], in: scratch.url)
            #expect(verified.status == 0, "\(template) \(folder): \(verified.stdout)\(verified.stderr)")

            // A console app runs, from its folder and from its package, with the same output.
            if template == "console-app" {
                let name = folder == "Plain" ? "Plain" : "Dotted App"
                let module = folder == "Plain" ? "Main" : "App/Start"
                let banner = Self.consoleBanner(name: name, modulePath: module)
                for target in [folder, package] {
                    let ran = try FlowpkgProcess.run(["run", target], in: scratch.url)
                    #expect(ran.status == 0, "\(ran.stderr)")
                    #expect(ran.stdout == banner, "run \(target)")
                }
            }
        }
    }

    /// What console-app's start module prints: its resource's lines in a frame titled with the name.
    static func consoleBanner(name: String, modulePath: String) -> String {
        let lines = [
            "Hello from \(name)!", "Run flowpkg dev, then edit and save", "Sources/\(modulePath).lua or this file.",
        ]
        let width = max(name.count + 2, lines.map(\.count).max()!)
        var out = "+- \(name) " + String(repeating: "-", count: width - name.count - 1) + "+\n"
        for line in lines { out += "| " + line + String(repeating: " ", count: width - line.count) + " |\n" }
        return out + "+" + String(repeating: "-", count: width + 2) + "+\n"
    }

    /// The README's demo: WordsTerminal run by flowpkg prints exactly what stock lua5.4 prints
    /// running the same files with a stand-in host, at any width.
    @Test(arguments: ["80", "33"])
    func wordsTerminalRunsAsUnderStockLua(columns: String) throws {
        let sample = Self.checkout.appendingPathComponent("Samples/WordsTerminal")
        let ran = try FlowpkgProcess.run(["run", sample.path], environment: ["COLUMNS": columns])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stderr.isEmpty)
        #expect(ran.stdout == (try Self.stockLua(sample: sample, columns: columns)))
        if columns == "80" { try TemplateGolden.check("run-wordsterminal", TemplateGolden.transcript(ran)) }
    }

    static func stockLua(sample: URL, columns: String) throws -> String {
        let host = StockLuaHost.script(startModule: "WordsController")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["lua5.4", "-e", host, "-", sample.path]
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = columns
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: ["WordsTerminal", "WordsCollection"])
    func samplesValidateClean(sample: String) throws {
        let result = try FlowpkgProcess.run([
            "validate", Self.checkout.appendingPathComponent("Samples/\(sample)").path,
            "--format", "json",
        ])
        #expect(result.status == 0, "\(result.stdout)")
        let counts = try summary(of: result)
        #expect(counts == ["errors": 0, "warnings": 0, "modules": 3, "resources": 1], "\(result.stdout)")

        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let exported = try FlowpkgProcess.run(
            ["export", Self.checkout.appendingPathComponent("Samples/\(sample)").path, "-o", "\(sample).luapkg"],
            in: scratch.url)
        #expect(exported.status == 0, "\(exported.stderr)")
        let verified = try FlowpkgProcess.run(["verify", "\(sample).luapkg"], in: scratch.url)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        // The linked text of WordsCollection is copied in under its resource name.
        let listed = try FlowpkgProcess.run(["inspect", "\(sample).luapkg", "--list"], in: scratch.url)
        #expect(listed.stdout.contains("resources/words.txt"), "\(listed.stdout)")
    }
}
