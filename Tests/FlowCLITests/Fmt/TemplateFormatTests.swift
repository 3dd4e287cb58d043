import FlowTestSupport
import Foundation
import Testing

/// Every template comes formatted, with the StyLua configuration it is formatted by: a fresh
/// project passes `flowpkg fmt --check`.
@Suite struct TemplateFormatTests {
    @Test(arguments: ["console-app", "empty-ios-app", "lua-library"])
    func aNewProjectIsFormatted(template: String) throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        for (folder, flags) in [
            ("Plain", [String]()), ("Dotted", ["--name", "Dotted App", "--start-module", "App.Start"]),
        ] {
            let created = try FlowpkgProcess.run(["new", folder, "--template", template] + flags, in: scratch.url)
            #expect(created.status == 0, "\(created.stderr)")
            let configuration = scratch.url.appendingPathComponent(folder).appendingPathComponent(".stylua.toml")
            #expect(FileManager.default.fileExists(atPath: configuration.path), "\(template) has no .stylua.toml")
            let checked = try FlowpkgProcess.run(["fmt", "--check"], in: scratch.url.appendingPathComponent(folder))
            #expect(checked.status == 0, "\(template) \(folder): \(checked.stdout)\(checked.stderr)")
            #expect(checked.stdout == "")
        }
    }
}
