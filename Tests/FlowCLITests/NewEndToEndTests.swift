import Foundation
import Testing

/// What `flowpkg new` makes is a real project: every template, with its defaults and with a
/// dotted start module, validates with no errors and no warnings and exports a package that
/// verifies; so do both Samples.
@Suite struct NewEndToEndTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func summary(of result: FlowpkgProcess.Result) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["summary"] as? [String: Int] ?? [:]
    }

    @Test(arguments: ["console-app", "empty-ios-app", "lua-library"])
    func everyTemplateMakesAProjectThatValidates(template: String) throws {
        let scratch = try CLIScratch()
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
        }
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

        let scratch = try CLIScratch()
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
