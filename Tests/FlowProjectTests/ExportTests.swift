import FlowProject
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// The export pipeline on the fixture projects: validation gates the write, the project model
/// becomes the package, failures become FP5xx diagnostics.
@Suite struct ExportTests {
    let output: URL

    init() throws {
        output = try Scratch("flowkit-export").url
    }

    private func options(_ changes: (inout ExportOptions) -> Void = { _ in }) -> ExportOptions {
        var options = ExportOptions(workingDirectory: output, environment: [:])
        changes(&options)
        return options
    }

    @Test func exportsTheProjectModel() throws {
        let result = Exporter.export(projectAt: ProjectFixtures.url("valid/Basic"), options: options())
        #expect(result.diagnostics.isEmpty)
        let package = try #require(result.package)
        #expect(package.url == output.appendingPathComponent("Basic-1.0.0.luapkg"))
        #expect(
            package.bytes
                == (try FileManager.default.attributesOfItem(atPath: package.url.path)[.size] as? NSNumber)?.int64Value)
        // Taken as the package was written, and equal to reading it back.
        #expect(package.sha256 == (try PackageFile.sha256(at: package.url)))
        let reader = try PackageReader(contentsOf: package.url)
        #expect(reader.manifest == package.manifest)
        #expect(reader.manifest.modules.map(\.name.rawValue) == ["Util", "Util.strings", "main"])
        #expect(
            reader.manifest.modules.map(\.path) == [
                "modules/Util/init.lua", "modules/Util/strings.lua", "modules/main.lua",
            ])
        #expect(reader.manifest.startModule?.rawValue == "main")
        let main = try String(contentsOf: ProjectFixtures.url("valid/Basic/Sources/main.lua"), encoding: .utf8)
        #expect(try reader.moduleData(ModuleName("main")) == Array(main.utf8))
        #expect(reader.verify().isEmpty)
    }

    @Test func linkedResourcesAreCopiedInUnderTheirNames() throws {
        let result = Exporter.export(projectAt: ProjectFixtures.url("valid/Linked/App"), options: options())
        let package = try #require(result.package, "\(result.diagnostics)")
        #expect(package.url.lastPathComponent == "Linked-2.1.0-beta.1.luapkg")
        #expect(
            package.manifest.resources.map(\.path) == [
                "resources/h2g2.txt", "resources/verse/ode.txt", "resources/verse/old/sonnet.txt",
            ])
        let bytes = try Data(contentsOf: package.url)
        #expect(bytes.range(of: Data(ProjectFixtures.root.path.utf8)) == nil)
        #expect(bytes.range(of: Data("Texts/".utf8)) == nil)
    }

    @Test func errorsStopTheExportWithoutTouchingTheOutput() throws {
        let target = output.appendingPathComponent("old.luapkg")
        try Data("an older package".utf8).write(to: target)
        let result = Exporter.export(
            projectAt: ProjectFixtures.url("invalid/FP301"), options: options { $0.output = "old.luapkg" })
        #expect(result.package == nil)
        #expect(result.diagnostics.map(\.code.code) == ["FP301"])
        #expect(try Data(contentsOf: target) == Data("an older package".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["old.luapkg"])
    }

    @Test func warningsBlockOnlyWhenStrict() throws {
        let lenient = Exporter.export(projectAt: ProjectFixtures.url("invalid/FP103"), options: options())
        #expect(lenient.package != nil)
        #expect(lenient.warningCount == 1)
        let strict = Exporter.export(
            projectAt: ProjectFixtures.url("invalid/FP103"),
            options: options {
                $0.strict = true
                $0.output = "strict.luapkg"
            })
        #expect(strict.package == nil)
        #expect(strict.diagnostics.map(\.code.code) == ["FP103"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("strict.luapkg").path))
    }

    @Test func identifierAndVersionOverridesReachThePackage() throws {
        let result = Exporter.export(
            projectAt: ProjectFixtures.url("valid/Basic"),
            options: options {
                $0.identifier = "com.example.ci"
                $0.version = "2.0.0+build.7"
            })
        let package = try #require(result.package)
        #expect(package.url.lastPathComponent == "Basic-2.0.0+build.7.luapkg")
        #expect(package.manifest.identifier.rawValue == "com.example.ci")
        #expect(package.manifest.version == "2.0.0+build.7")
        let bad = Exporter.export(
            projectAt: ProjectFixtures.url("valid/Basic"), options: options { $0.identifier = "nodots" })
        #expect(bad.package == nil)
        #expect(bad.diagnostics.map(\.code.code) == ["FP105"])
    }

    @Test func sameProjectGivesSameBytesFromAnotherPlace() throws {
        let first = try #require(
            Exporter.export(projectAt: ProjectFixtures.url("valid/Basic"), options: options { $0.output = "a.luapkg" })
                .package)
        let copy = try ProjectFixtures.copy("valid/Basic")
        defer { ProjectFixtures.remove(copy) }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_234_567_890)],
            ofItemAtPath: copy.appendingPathComponent("Sources/main.lua").path)
        let second = try #require(Exporter.export(projectAt: copy, options: options { $0.output = "b.luapkg" }).package)
        #expect(try Data(contentsOf: first.url) == Data(contentsOf: second.url))
    }

    @Test func sourceDateEpochIsUsedAndChecked() throws {
        let stamped = Exporter.export(
            projectAt: ProjectFixtures.url("valid/Basic"),
            options: options {
                $0.environment = ["SOURCE_DATE_EPOCH": "1700000000"]
            })
        let package = try #require(stamped.package)
        let plain = Exporter.export(
            projectAt: ProjectFixtures.url("valid/Basic"), options: options { $0.output = "plain.luapkg" })
        #expect(try Data(contentsOf: package.url) != Data(contentsOf: try #require(plain.package).url))
        let bad = Exporter.export(
            projectAt: ProjectFixtures.url("valid/Basic"),
            options: options {
                $0.environment = ["SOURCE_DATE_EPOCH": "last tuesday"]
                $0.output = "bad.luapkg"
            })
        #expect(bad.package == nil)
        #expect(bad.diagnostics.map(\.code.code) == ["FP504"])
    }

    @Test func unwritableOutputIsADiagnosticOnThatPath() throws {
        try Data("a file\n".utf8).write(to: output.appendingPathComponent("taken"))
        let result = Exporter.export(
            projectAt: ProjectFixtures.url("valid/Basic"), options: options { $0.output = "taken/folder/x.luapkg" })
        #expect(result.package == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code.code == "FP501")
        #expect(diagnostic.file == output.appendingPathComponent("taken/folder/x.luapkg").path)
        #expect(diagnostic.message.contains("cannot make the folder"))
    }

    @Test func cancelledExportLeavesNothing() throws {
        let cancellation = PackageCancellation()
        cancellation.cancel()
        let result = Exporter.export(
            projectAt: ProjectFixtures.url("valid/Basic"), options: options { $0.cancellation = cancellation })
        #expect(result.wasCancelled)
        #expect(result.diagnostics.map(\.code.code) == ["FP505"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
    }
}
