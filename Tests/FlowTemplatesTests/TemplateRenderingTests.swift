@testable import FlowDiagnostics
import FlowPackage
@testable import FlowTemplates
import Foundation
import Testing

@Suite struct TemplateRenderingTests {
    func template(_ files: [String: [UInt8]], manifest: String? = nil) throws -> Template {
        let json =
            manifest ?? """
                {"description": "test", "variables": [
                  {"name": "startModule", "description": "start", "default": "Main", "kind": "module"}]}
                """
        var all = files.map { Template.File(path: $0.key, bytes: $0.value) }
        all.append(Template.File(path: "template.json", bytes: Array(json.utf8)))
        return try Template.from(name: "test", origin: "test", files: all)
    }

    func render(_ template: Template, _ given: [String: String] = [:], folder: String = "/tmp/Demo") throws -> [String:
        [UInt8]]
    {
        let values = try TemplateValues.resolve(
            template: template, destination: URL(fileURLWithPath: folder), given: given)
        var result: [String: [UInt8]] = [:]
        for file in try TemplateRenderer.render(template, context: values.renderingContext(for: template)) {
            result[file.path] = file.bytes
        }
        return result
    }

    @Test func variablesFillContentsAndPaths() throws {
        let t = try template([
            "Sources/{{startModulePath}}.lua": Array(
                "-- {{startModule}} of {{name}} ({{identifier}}) {{startModuleLeaf}}".utf8),
            "{{name}}/notes.txt": Array("a < b & c".utf8),
        ])
        let files = try render(t, ["startModule": "App.Main", "name": "Words & Co"])
        #expect(Set(files.keys) == ["Sources/App/Main.lua", "Words & Co/notes.txt"])
        #expect(
            String(decoding: files["Sources/App/Main.lua"]!, as: UTF8.self)
                == "-- App.Main of Words & Co (com.example.words-co) Main")
        // Source files are not web pages: nothing is HTML-escaped.
        #expect(String(decoding: files["Words & Co/notes.txt"]!, as: UTF8.self) == "a < b & c")
    }

    @Test func templateJSONIsNotCopied() throws {
        let files = try render(try template(["a.txt": Array("x".utf8)]))
        #expect(Array(files.keys) == ["a.txt"])
    }

    @Test func binaryFilesAreCopiedByteForByte() throws {
        let png: [UInt8] = Array("{{name}}".utf8) + [0x89, 0x50]  // valid UTF-8 prefix, binary by extension
        let junk: [UInt8] = [0xFF, 0xFE, 0x7B, 0x7B, 0x6E, 0x7D, 0x7D]  // not UTF-8
        let nul: [UInt8] = Array("{{name}}".utf8) + [0, 1, 2]
        let files = try render(try template(["logo.png": png, "{{name}}.bin": junk, "data.dat": nul]))
        #expect(files["logo.png"] == png)
        #expect(files["Demo.bin"] == junk)
        #expect(files["data.dat"] == nul)
    }

    @Test func defaultsComeFromTheFolderAndTheTemplate() throws {
        let t = try template(["x": Array("{{name}}|{{identifier}}|{{startModule}}".utf8)])
        let files = try render(t, folder: "/tmp/Hello World 2!")
        #expect(String(decoding: files["x"]!, as: UTF8.self) == "Hello World 2!|com.example.hello-world-2|Main")
        #expect(TemplateValues.identifierPart(from: "Ünïcode__App") == "unicode-app")
        #expect(TemplateValues.identifierPart(from: "!!!") == "app")
    }

    /// Latin letters lose their accents; names with no Latin letter fall back to `app`; the
    /// result always makes a valid identifier.
    @Test func nonASCIINamesGiveASensibleIdentifier() throws {
        let cases = [
            "Café Ünïcode": "cafe-unicode", "Straße": "strasse", "Ærøskøbing": "aeroskobing",
            "Œuvre Þing": "oeuvre-thing", "Cafe\u{301}": "cafe", "Łódź 2": "lodz-2", "ＡＢＣ": "abc",
            "日本語": "app", "Москва": "app", "Ελλάδα App": "app", "Ñandú — Ñu": "nandu-nu",
        ]
        for (name, part) in cases {
            #expect(TemplateValues.identifierPart(from: name) == part, "\(name)")
            #expect(PackageIdentifier.problem(in: "com.example." + TemplateValues.identifierPart(from: name)) == nil)
        }
        #expect(TemplateValues.identifierPart(from: String(repeating: "é", count: 300)).count == 200)
    }

    @Test func badValuesAreRefusedWithTheReason() throws {
        let t = try template(["x": []])
        #expect(
            throws: TemplateError.invalidValue(
                variable: "startModule", value: "my..module",
                reason: "it has an empty part between dots")
        ) {
            try render(t, ["startModule": "my..module"])
        }
        #expect {
            try render(t, ["identifier": "com..x"])
        } throws: { error in
            guard
                case TemplateError.invalidValue(variable: "identifier", value: "com..x", reason: _) = error
                    as! TemplateError
            else { return false }
            return true
        }
        #expect(throws: TemplateError.invalidValue(variable: "name", value: "", reason: "it is empty")) {
            try render(t, ["name": ""])
        }
        #expect(
            throws: TemplateError.unknownVariable(
                name: "colour", template: "test", known: ["name", "identifier", "startModule"])
        ) {
            try render(t, ["colour": "red"])
        }
    }

    @Test func anUnusedStartModuleIsANoteNotAnError() throws {
        let t = try template(["x": []], manifest: #"{"description": "library"}"#)
        let values = try TemplateValues.resolve(
            template: t, destination: URL(fileURLWithPath: "/tmp/L"),
            given: ["startModule": "Main"])
        #expect(values.notes == ["template 'test' has no use for --start-module; 'Main' is ignored"])
        #expect(values.values["startModule"] == nil)
    }

    @Test func patternsAndRequiredValues() throws {
        let t = try template(
            ["x": Array("{{year}}".utf8)],
            manifest: """
                {"description": "d", "variables": [{"name": "year", "description": "y", "pattern": "[0-9]{4}"}]}
                """)
        #expect(throws: TemplateError.missingValue(variable: "year")) { try render(t) }
        #expect(
            throws: TemplateError.invalidValue(
                variable: "year", value: "99", reason: "it does not match the pattern [0-9]{4}")
        ) {
            try render(t, ["year": "99"])
        }
        #expect(String(decoding: try render(t, ["year": "2016"])["x"]!, as: UTF8.self) == "2016")
    }

    @Test func renderedPathsMayNotLeaveTheProject() throws {
        let t = try template(["../{{name}}.lua": [], "{{startModule}}/../../x": [], "/abs": []])
        #expect {
            try render(t)
        } throws: { error in
            guard case TemplateError.invalidTemplate(let diagnostics) = error as! TemplateError else { return false }
            return diagnostics.map(\.code.code) == ["FP604", "FP604", "FP604"]
                && diagnostics.contains {
                    $0.message == "'../{{name}}.lua' renders to '../Demo.lua', which leaves the project folder ('..')"
                }
        }
    }

    @Test func mustacheErrorsNameFileAndLine() throws {
        let t = try template(["a.lua": Array("line one\n{{#open}}\nno close\n".utf8), "b.lua": Array("x".utf8)])
        #expect {
            try render(t)
        } throws: { error in
            guard case TemplateError.invalidTemplate(let diagnostics) = error as! TemplateError else { return false }
            return diagnostics.count == 1 && diagnostics[0].code.code == "FP603" && diagnostics[0].file == "test/a.lua"
                && diagnostics[0].message == "Mustache does not parse: a section is never closed"
                && diagnostics[0].line != nil
        }
    }

    @Test func aVariableTheTemplateDoesNotDeclareIsAnErrorNotEmptyText() throws {
        let t = try template([
            "a.lua": Array(
                "-- {{name}}\nprint('{{ nmae }}', '{{startModuleLeaf}}')\n{{#flowpkgVersion}}ok{{/flowpkgVersion}}\n"
                    .utf8),
            "{{projet}}.txt": Array("x".utf8),
        ])
        let diagnostics: [Diagnostic]
        do {
            _ = try render(t)
            diagnostics = []
        } catch {
            guard case TemplateError.invalidTemplate(let found)? = error as? TemplateError else { throw error }
            diagnostics = found
        }
        #expect(diagnostics.map(\.code.code) == ["FP606", "FP606"])
        let content = diagnostics.first { $0.file == "test/a.lua" }
        #expect(content?.message == "'nmae' is not a variable of this template, so it would render as empty text")
        #expect(content?.line == 2 && content?.column == 8)
        #expect(
            content?.hint?.hasSuffix(
                "this template has: identifier, name, startModule, startModuleLeaf, startModulePath") == true)
        let name = diagnostics.first { $0.file == "test/{{projet}}.txt" }
        #expect(name?.message.hasPrefix("'projet' is not a variable") == true)
    }

    @Test func tagsAreFoundWhateverTheirSigil() {
        #expect(TemplateRenderer.firstTag(naming: "x", in: "a\n  {{#x}}{{/x}}")! == (2, 3))
        #expect(TemplateRenderer.firstTag(naming: "x", in: "{{xy}} {{{ x }}}")! == (1, 8))
        #expect(TemplateRenderer.firstTag(naming: "x", in: "{{y}}") == nil)
    }

    @Test func collidingPathsAreRefused() throws {
        let t = try template(["Sources/{{startModule}}.lua": [], "Sources/Main.lua": []])
        #expect {
            try render(t)
        } throws: { error in
            guard case TemplateError.invalidTemplate(let diagnostics) = error as! TemplateError else { return false }
            return diagnostics.map(\.code.code) == ["FP605"]
        }
    }

    @Test func brokenManifestsAreReported() throws {
        func codes(_ json: String) -> [String] {
            do {
                _ = try template([:], manifest: json)
                return []
            } catch let error as TemplateError {
                guard case .invalidTemplate(let diagnostics) = error else { return ["?"] }
                return diagnostics.map(\.code.code)
            } catch {
                return ["?"]
            }
        }
        #expect(codes("{") == ["FP601"])
        #expect(codes("[]") == ["FP601"])
        #expect(codes(#"{"description": "d", "description": "e"}"#) == ["FP601"])
        #expect(codes(#"{"variables": []}"#) == ["FP602"])
        #expect(codes(#"{"description": "d", "extra": 1}"#) == ["FP602"])
        #expect(codes(#"{"description": "d", "variables": [{"name": "name", "description": "x"}]}"#) == ["FP602"])
        #expect(
            codes(
                #"{"description": "d", "variables": [{"name": "m", "description": "x", "kind": "module", "default": "a..b"}]}"#
            ) == ["FP602"])
        #expect(codes(#"{"description": "d", "variables": [{"name": "a-b", "description": "x"}]}"#) == ["FP602"])
        #expect(
            codes(#"{"description": "d", "variables": [{"name": "p", "description": "x", "pattern": "("}]}"#) == [
                "FP602"
            ])
        #expect(codes(#"{"description": "d"}"#) == [])
    }
}
