import EmbeddedTemplates
import FlowTemplates
import Foundation
import Testing

@Suite struct EmbeddedTemplatesTests {
    /// The binary carries exactly what `Templates/` holds now; a stale build fails here.
    @Test func embeddedFilesEqualTheTemplatesFolder() throws {
        let root = checkoutRoot.appendingPathComponent("Templates")
        var onDisk: [String: Data] = [:]
        for (relative, data) in TemplateScratch.tree(root) {
            guard let data, relative.contains("/"), !relative.hasSuffix(".DS_Store") else { continue }
            onDisk[relative] = data
        }
        var embedded: [String: Data] = [:]
        for file in EmbeddedTemplates.files { embedded[file.path] = Data(file.bytes) }
        #expect(!onDisk.isEmpty)
        #expect(embedded.keys.sorted() == onDisk.keys.sorted())
        for (path, data) in onDisk { #expect(embedded[path] == data, "\(path) differs from its embedded copy") }
    }

    @Test func theBundledCatalogHasTheThreeTemplates() throws {
        let catalog = try TemplateCatalog.bundled()
        #expect(catalog.names == ["console-app", "empty-ios-app", "lua-library"])
        #expect(catalog.templates.allSatisfy { !$0.manifest.description.isEmpty })
    }

    /// A template folder on disk loads as the embedded copy of it does.
    @Test func aFolderLoadsLikeItsEmbeddedCopy() throws {
        let bundled = try TemplateCatalog.bundled()
        for template in bundled.templates {
            let fromDisk = try Template.load(from: checkoutRoot.appendingPathComponent("Templates/\(template.name)"))
            #expect(fromDisk.files == template.files)
            #expect(fromDisk.manifest == template.manifest)
        }
        let here = URL(fileURLWithPath: "/")
        #expect(throws: TemplateError.unknownTemplate(name: "no-such", known: bundled.names)) {
            try bundled.template(named: "no-such", relativeTo: here)
        }
    }

    /// Every bundled template renders with its defaults, and with a dotted start module.
    @Test func bundledTemplatesRender() throws {
        for template in try TemplateCatalog.bundled().templates {
            for given in [[:], ["startModule": "App.Start", "name": "Other Name"]] {
                let project = try NewProject.plan(
                    template: template, destination: URL(fileURLWithPath: "/nonexistent/Demo"),
                    given: given)
                #expect(project.files.contains { $0.path == "flowpkg.json" })
                let json = try JSONSerialization.jsonObject(
                    with: Data(project.files.first { $0.path == "flowpkg.json" }!.bytes))
                #expect((json as? [String: Any])?["identifier"] as? String == project.values.values["identifier"])
            }
        }
    }
}
