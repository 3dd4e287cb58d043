import FlowProject
import FlowPackage
import Foundation
import Testing

@Suite struct ProjectLoaderTests {
    @Test func basicProjectModel() throws {
        let root = ProjectFixtures.url("valid/Basic")
        let (project, diagnostics) = ProjectLoader.load(from: root)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let model = try #require(project)
        #expect(model.identifier.rawValue == "com.example.basic")
        #expect(model.projectFile.name == "Basic")
        #expect(model.projectFile.sources == ["Sources"])
        #expect(model.projectFile.resources == [.folder("Resources")])
        #expect(model.projectFile.environment == "lua")
        #expect(model.startModule?.rawValue == "main")
        // Hidden files and non-Lua files are not modules; init.lua names its folder.
        #expect(model.modules.map(\.name.rawValue) == ["Util", "Util.strings", "main"])
        #expect(model.modules.map(\.relativePath) == ["Util/init.lua", "Util/strings.lua", "main.lua"])
        #expect(model.modules[0].file.path == root.appendingPathComponent("Sources/Util/init.lua").path)
        #expect(model.resources.map(\.key.description) == ["img/logo.png", "texts/words.txt"])
        #expect(model.resources.map(\.key.name) == ["img/logo", "texts/words"])
        #expect(model.resources.allSatisfy { !$0.isLinked })
        #expect(model.module(named: "Util.strings")?.relativePath == "Util/strings.lua")
        #expect(model.module(named: "Util.string") == nil)
        #expect(model.resource(named: "img/logo", type: "png") != nil)
    }

    @Test func linkedFilesAndFolders() throws {
        let root = ProjectFixtures.url("valid/Linked/App")
        let (project, diagnostics) = ProjectLoader.load(from: root)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let model = try #require(project)
        #expect(
            model.projectFile.resources == [
                .linked(path: "../Texts/h2g2.txt", name: "h2g2"),
                .linked(path: "../Texts/poems", name: "verse"),
            ])
        #expect(model.resources.map(\.key.description) == ["h2g2.txt", "verse/ode.txt", "verse/old/sonnet.txt"])
        #expect(model.resources.allSatisfy { $0.isLinked })
        #expect(model.projectFile.environment == "codeflow-ios")
        #expect(model.projectFile.globals == ["hostVersion"])
        #expect(model.projectFile.isExternalModule("lpeg"))
        #expect(model.projectFile.isExternalModule("MyHost.UI.Button"))
        #expect(!model.projectFile.isExternalModule("MyHostile"))
    }

    @Test func contentErrorsStillGiveAProject() {
        let (project, diagnostics) = ProjectLoader.load(from: ProjectFixtures.url("invalid/FP202"))
        #expect(diagnostics.map(\.code.code) == ["FP202"])
        #expect(project?.modules.map(\.name.rawValue) == ["Foo", "main"])
    }

    @Test func anUnusableIdentifierGivesNoProject() {
        #expect(ProjectLoader.load(from: ProjectFixtures.url("invalid/FP105")).project == nil)
        #expect(ProjectLoader.load(from: ProjectFixtures.url("invalid/FP101")).project == nil)
        #expect(ProjectLoader.load(from: ProjectFixtures.url("invalid/FP108")).project == nil)
    }

    @Test func overridesReplaceTheFileValues() {
        let root = ProjectFixtures.url("valid/Basic")
        var options = ValidationOptions(identifier: "org.example.other", version: "3.2.1")
        var report = Validator.validate(projectAt: root, options: options)
        #expect(report.diagnostics.isEmpty)
        #expect(report.project?.identifier.rawValue == "org.example.other")
        #expect(report.project?.projectFile.version == "3.2.1")
        options.version = "three"
        options.identifier = "bad id"
        report = Validator.validate(projectAt: root, options: options)
        #expect(report.diagnostics.map(\.code.code) == ["FP105", "FP106"])
        #expect(report.diagnostics.allSatisfy { $0.file == nil })
    }

    @Test func everyProblemOfTheProjectFileAtOnce() throws {
        let project = try ProjectFixtures.copy("invalid/FP208")
        defer { ProjectFixtures.remove(project) }
        let json = """
            {
              "name": "",
              "identifier": "com.example.x",
              "version": 1,
              "startModule": "nine/lives",
              "resources": ["Resources", 3, {"name": "x"}, {"path": "a", "size": 1}],
              "globals": ["ok", "not ok"],
              "externalModules": ["lpeg", "Bad..Name"],
              "environment": null
            }
            """
        try json.write(to: project.appendingPathComponent("flowpkg.json"), atomically: true, encoding: .utf8)
        let (model, diagnostics) = ProjectLoader.load(from: project)
        #expect(model == nil)
        #expect(
            diagnostics.map { "\($0.code)@\($0.line ?? 0):\($0.column ?? 0)" } == [
                "FP106@2:11", "FP102@4:3", "FP106@5:18", "FP102@6:30", "FP104@6:33", "FP103@6:62",
                "FP106@7:21", "FP106@8:31", "FP109@6:17", "FP207@6:48",
            ])
    }

    @Test func runtimeVersionIsReadAndChecked() throws {
        let project = try ProjectFixtures.copy("valid/Basic")
        defer { ProjectFixtures.remove(project) }
        let file = project.appendingPathComponent("flowpkg.json")
        var json = try String(contentsOf: file, encoding: .utf8)
        json = json.replacingOccurrences(
            of: "{", with: "{\n  \"runtimeVersion\": \"2\",", options: [], range: json.range(of: "{"))
        try json.write(to: file, atomically: true, encoding: .utf8)
        let (model, diagnostics) = ProjectLoader.load(from: project)
        #expect(diagnostics.isEmpty)
        #expect(model?.projectFile.runtimeVersion == "2")

        try json.replacingOccurrences(of: "\"runtimeVersion\": \"2\"", with: "\"runtimeVersion\": \"\"")
            .write(to: file, atomically: true, encoding: .utf8)
        let empty = ProjectLoader.load(from: project).1
        #expect(
            empty.map { "\($0.code)@\($0.line ?? 0):\($0.column ?? 0) \($0.message)" }
                == ["FP106@2:21 the runtime version must be 1 to 64 characters"])
    }
}
