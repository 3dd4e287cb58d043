import FlowDiagnostics
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

@testable import FlowProject

/// FP502 and FP503: failures only the package writer finds (validation has passed), raised by
/// the real writer and turned by export into a diagnostic on the file concerned.
@Suite struct ExportFailureCodeTests {
    let folder: URL

    init() throws {
        folder = try Scratch("fp50x").url
    }

    private func input(modules: [PackageInput.Module]) throws -> PackageInput {
        PackageInput(
            identifier: try PackageIdentifier("com.example.codes"), name: "Codes", version: "1.0.0",
            startModule: try ModuleName("main"), modules: modules, resources: [])
    }

    /// The diagnostic export reports for what writing `input` throws.
    private func exportDiagnostic(_ input: PackageInput) throws -> Diagnostic {
        let output = folder.appendingPathComponent("out.luapkg")
        let error = #expect(throws: PackageError.self) { try PackageWriter.write(input, to: output) }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        return Exporter.diagnostic(for: try #require(error))
    }

    @Test func anInputThatCannotBeReadIsFP502OnThatFile() throws {
        let main = folder.appendingPathComponent("main.lua")
        try Data("return 1\n".utf8).write(to: main)
        let gone = folder.appendingPathComponent("gone.lua")
        let diagnostic = try exportDiagnostic(
            try input(modules: [
                .init(name: try ModuleName("main"), relativePath: "main.lua", file: main),
                .init(name: try ModuleName("gone"), relativePath: "gone.lua", file: gone),
            ]))
        #expect(diagnostic.code == .inputUnreadable)
        #expect(diagnostic.code.code == "FP502")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.file == gone.path)
        #expect(diagnostic.message.contains("modules/gone.lua"))
    }

    @Test func aModuleGivenTwiceIsFP503OnThePackage() throws {
        let main = folder.appendingPathComponent("main.lua")
        try Data("return 1\n".utf8).write(to: main)
        let module = PackageInput.Module(name: try ModuleName("main"), relativePath: "main.lua", file: main)
        let diagnostic = try exportDiagnostic(try input(modules: [module, module]))
        #expect(diagnostic.code == .packageLimit)
        #expect(diagnostic.code.code == "FP503")
        #expect(diagnostic.file == folder.appendingPathComponent("out.luapkg").path)
        #expect(diagnostic.message == "modules/main.lua: module main is given twice")
    }
}
