import FlowSupport
import FlowTestSupport
import Foundation
import Testing

@testable import FlowPackage

/// Export reads each input once (issue 33): bytes the caller already read are written as
/// they are, and the package's SHA-256 is taken from its bytes as they are written.
@Suite struct WriterInputOnceTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    @Test func bytesHandedInAreWrittenWithoutReadingTheFile() throws {
        // The file is not there: only the bytes handed in can be written.
        let missing = scratch.url.appendingPathComponent("gone/main.lua")
        let code = Array("print('from validation')\n".utf8)
        let input = PackageInput(
            identifier: try PackageIdentifier("com.example.once"), name: "Once", version: "1.0.0",
            startModule: try ModuleName("main"),
            modules: [.init(name: try ModuleName("main"), relativePath: "main.lua", file: missing, contents: code)],
            resources: [])
        let output = scratch.url.appendingPathComponent("Once.luapkg")
        let written = try PackageWriter.writePackage(input, to: output)
        let reader = try PackageReader(contentsOf: output)
        let module = try #require(reader.module(named: try ModuleName("main")))
        #expect(try reader.moduleData(module) == code)
        #expect(written.manifest == reader.manifest)
    }

    @Test func theWrittenDigestIsThePackageFiles() throws {
        let project = try SampleProject(scratch)
        let output = scratch.url.appendingPathComponent("Digest.luapkg")
        let written = try PackageWriter.writePackage(project.input, to: output)
        #expect(written.sha256 == (try PackageFile.sha256(at: output)))
        let size = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber
        #expect(written.bytes == size?.int64Value)
    }
}
