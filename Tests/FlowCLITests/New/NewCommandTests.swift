import FlowTestSupport
import Foundation
import Testing

@Suite struct NewCommandTests {
    func run(_ arguments: [String], in scratch: Scratch) throws -> FlowpkgProcess.Result {
        try FlowpkgProcess.run(["new"] + arguments, in: scratch.url)
    }

    @Test func createsAConsoleApp() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let result = try run(["Hello", "--template", "console-app"], in: scratch)
        #expect(result.status == 0)
        try TemplateGolden.check("new-console-app", TemplateGolden.transcript(result))
        let project = String(decoding: scratch.tree["Hello/flowpkg.json"]!!, as: UTF8.self)
        #expect(project.contains(#""identifier": "com.example.hello""#))
        #expect(scratch.tree["Hello/Sources/Main.lua"] != nil)
        // Nothing else is left beside the project: the staging folder was renamed into place.
        #expect(Set(scratch.tree.keys.filter { !$0.contains("/") }) == ["Hello"])
    }

    @Test func takesEveryFlag() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let result = try run(
            [
                "apps/Words", "--template", "empty-ios-app", "--name", "WordsCollection",
                "--identifier", "org.flow.words", "--start-module", "CollectionController",
            ], in: scratch)
        #expect(result.status == 0)
        try TemplateGolden.check("new-empty-ios-app", TemplateGolden.transcript(result))
        let module = String(decoding: scratch.tree["apps/Words/Sources/CollectionController.lua"]!!, as: UTF8.self)
        #expect(module.contains(#"class.createClass("CollectionController", UIViewController)"#))
        let host = String(decoding: scratch.tree["apps/Words/Host/AppDelegate.swift"]!!, as: UTF8.self)
        #expect(host.contains(#"package: try PackageIdentifier("org.flow.words")"#))
    }

    @Test func aLibraryNotesTheStartModuleItHasNoUseFor() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let result = try run(
            ["shared-text", "--template", "lua-library", "--start-module", "Main", "--set", "module=Text.Tools"],
            in: scratch)
        #expect(result.status == 0)
        try TemplateGolden.check("new-lua-library", TemplateGolden.transcript(result))
        #expect(scratch.tree["shared-text/Sources/Text/Tools/init.lua"] != nil)
    }

    /// Any folder of the right shape is a template: its own variables, names rendered, binary
    /// files copied byte for byte.
    @Test func aTemplateFolderOfYourOwn() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent("team-templates/service")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Resources"), withIntermediateDirectories: true)
        try Data(
            #"""
            {"description": "Our service skeleton", "variables": [
              {"name": "team", "description": "Owning team", "default": "platform", "pattern": "[a-z]+"},
              {"name": "startModule", "description": "Entry", "default": "Service", "kind": "module"}]}
            """#.utf8
        ).write(to: folder.appendingPathComponent("template.json"))
        try Data(
            #"{"name": "{{name}}", "identifier": "{{identifier}}", "version": "1.0.0", "startModule": "{{startModule}}"}"#
                .utf8
        )
        .write(to: folder.appendingPathComponent("flowpkg.json"))
        try Data("print(\"{{team}} owns {{name}}\")\n".utf8)
            .write(to: folder.appendingPathComponent("Sources/{{startModulePath}}.lua"))
        let logo: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x7B, 0x7B, 0xFF]
        try Data(logo).write(to: folder.appendingPathComponent("Resources/{{team}}-logo.png"))
        let script = folder.appendingPathComponent("deploy-{{team}}.sh")
        try Data("#!/bin/sh\necho deploying {{name}}\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)

        let result = try run(
            ["Billing", "--template", "team-templates/service", "--set", "team=payments"], in: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        let tree = scratch.tree
        #expect(tree["Billing/Sources/Service.lua"] == Data("print(\"payments owns Billing\")\n".utf8))
        #expect(tree["Billing/Resources/payments-logo.png"] == Data(logo))
        #expect(tree["Billing/template.json"] == nil)
        // A script stays executable; everything else does not become so.
        let permissions = { (path: String) in
            (try? FileManager.default.attributesOfItem(atPath: scratch.url.appendingPathComponent(path).path)[
                .posixPermissions] as? Int) ?? -1
        }
        #expect(permissions("Billing/deploy-payments.sh") & 0o111 == 0o111)
        #expect(permissions("Billing/Sources/Service.lua") & 0o111 == 0)
        #expect(tree["Billing/deploy-payments.sh"] == Data("#!/bin/sh\necho deploying Billing\n".utf8))

        let refused = try run(
            ["Other", "--template", "team-templates/service", "--set", "team=Payments!"], in: scratch)
        #expect(refused.status == 64)
        #expect(
            refused.stderr
                == "error: 'Payments!' is not a valid value for 'team' (--set team=...): it does not match the pattern [a-z]+\n"
        )
        #expect(scratch.tree == tree)
    }

    @Test func dryRunWritesNothing() throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let result = try run(["Dry", "--template", "console-app", "--dry-run"], in: scratch)
        #expect(result.status == 0)
        try TemplateGolden.check("new-dry-run", TemplateGolden.transcript(result))
        #expect(scratch.tree.isEmpty)
    }

    /// Each refusal exits with its status, says why, and leaves the folder exactly as it was.
    @Test(arguments: [
        ("new-refuses-non-empty-folder", ["Taken", "--template", "console-app"], Int32(1)),
        ("new-refuses-bad-identifier", ["Fresh", "--template", "console-app", "--identifier", "com..example"], 64),
        ("new-refuses-bad-start-module", ["Fresh", "--template", "console-app", "--start-module", "my..module"], 64),
        ("new-refuses-empty-name", ["Fresh", "--template", "console-app", "--name", ""], 64),
        ("new-refuses-unknown-template", ["Fresh", "--template", "ios-app"], 64),
        ("new-refuses-unknown-variable", ["Fresh", "--template", "console-app", "--set", "colour=red"], 64),
        ("new-refuses-escaping-path", ["Fresh", "--template", "./escaping"], 1),
    ])
    func refusalsLeaveTheFileSystemAsItWas(golden: String, arguments: [String], status: Int32) throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let taken = scratch.url.appendingPathComponent("Taken")
        try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: taken.appendingPathComponent("notes.txt"))
        let escaping = scratch.url.appendingPathComponent("escaping")
        try FileManager.default.createDirectory(at: escaping, withIntermediateDirectories: true)
        try Data(#"{"description": "writes outside"}"#.utf8).write(to: escaping.appendingPathComponent("template.json"))
        try Data("ok".utf8).write(to: escaping.appendingPathComponent("inside.txt"))
        // A folder whose name renders to ".." once a name is given: its file would land outside.
        let up = escaping.appendingPathComponent("{{#name}}..{{/name}}")
        try FileManager.default.createDirectory(at: up, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: up.appendingPathComponent("outside.txt"))
        let before = scratch.tree

        let result = try run(arguments, in: scratch)
        #expect(result.status == status)
        #expect(scratch.tree == before)
        try TemplateGolden.check(golden, TemplateGolden.transcript(result))
    }
}
