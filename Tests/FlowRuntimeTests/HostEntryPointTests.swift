import FlowLoader
import FlowPackage
import FlowTestSupport
import Foundation
import Testing
@testable import FlowRuntime

/// `LuaContext(package:in:)` and `(package:bundle:)`: a host names its package once.
@Suite struct HostEntryPointTests {
    let folder: URL

    init() throws {
        folder = try Scratch("host").url
    }

    /// Writes a real package of `modules` (name → code) into `folder`.
    @discardableResult
    func writePackage(_ file: String, identifier: String, start: String? = "main", modules: [String: String]) throws
        -> URL
    {
        let inputs = folder.appendingPathComponent("inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        var moduleInputs: [PackageInput.Module] = []
        for (name, code) in modules.sorted(by: { $0.key < $1.key }) {
            let url = inputs.appendingPathComponent(name + ".lua")
            try Data(code.utf8).write(to: url)
            moduleInputs.append(.init(name: try ModuleName(name), relativePath: name + ".lua", file: url))
        }
        let input = PackageInput(
            identifier: try PackageIdentifier(identifier), name: "Test", version: "1.0.0",
            startModule: try start.map { try ModuleName($0) }, modules: moduleInputs, resources: [])
        let output = folder.appendingPathComponent(file)
        try PackageWriter.write(input, to: output)
        try FileManager.default.removeItem(at: inputs)
        return output
    }

    @Test func theIdentifierFindsThePackageAndItsStartModule() throws {
        try writePackage("Other.luapkg", identifier: "com.example.other", modules: ["main": "return 'other'"])
        try writePackage(
            "App.luapkg", identifier: "com.example.app",
            modules: ["main": "return require('util') .. '!'", "util": "return 'app'"])
        let id = try PackageIdentifier("com.example.app")
        let context = try LuaContext(package: id, in: [folder])
        #expect(context.name == "com.example.app")
        #expect(context.packageIdentifier == id)
        #expect(context.startModule == (try ModuleName("main")))
        #expect(try context.loadStartModule() == "app!")
        #expect(context.loadedItems.map(\.source) == [.embeddedPackage, .embeddedPackage])

        let bundled = try LuaContext(package: id, bundle: try #require(Bundle(path: folder.path)), name: "Bundled")
        #expect(bundled.name == "Bundled")
        #expect(try bundled.loadStartModule() == "app!")
    }

    @Test func aMissingPackageListsWhatWasFound() throws {
        try writePackage("Other.luapkg", identifier: "com.example.other", modules: ["main": "return 1"])
        do {
            _ = try LuaContext(package: PackageIdentifier("com.example.app"), in: [folder])
            Issue.record("a context was made without its package")
        } catch let error as LoaderError {
            guard case .packageNotFound = error else { Issue.record("\(error)"); return }
            #expect("\(error)".contains("com.example.other"))
        }
    }

    @Test func aLibraryPackageHasNoStartModuleToLoad() throws {
        try writePackage("Lib.luapkg", identifier: "com.example.lib", start: nil, modules: ["lib": "return 3"])
        let context = try LuaContext(package: PackageIdentifier("com.example.lib"), in: [folder])
        #expect(context.startModule == nil)
        #expect(throws: LuaContextError.noStartModule(try PackageIdentifier("com.example.lib"))) {
            try context.loadStartModule()
        }
        #expect(try context.loadModule(ModuleName("lib")) == 3)
        #expect("\(LuaContextError.noStartModule(try PackageIdentifier("com.example.lib")))".contains("startModule"))
    }
}
