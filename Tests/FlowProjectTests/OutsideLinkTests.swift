import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A linked resource (and a `.luacheckrc` that is a link) must lie inside the project's
/// repository; elsewhere needs the caller's opt-in, and system folders, special files and
/// folders holding the project are refused whatever the opt-in (issue 38).
@Suite struct OutsideLinkTests {
    /// A scratch folder holding `App/` (the project) with `resources` as its resources entries;
    /// with `repository`, the scratch folder is a git work tree (a `.git` folder).
    struct Scratch {
        let base: URL
        var app: URL { base.appendingPathComponent("App") }

        init(resources: String, repository: Bool = false) throws {
            base =
                try FlowTestSupport.Scratch("links").url.standardizedFileURL
            let sources = base.appendingPathComponent("App/Sources")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            if repository {
                try FileManager.default.createDirectory(
                    at: base.appendingPathComponent(".git"), withIntermediateDirectories: true)
            }
            try "return 1\n".write(to: sources.appendingPathComponent("main.lua"), atomically: true, encoding: .utf8)
            try """
            {
              "name": "App",
              "identifier": "com.example.app",
              "version": "1.0.0",
              "startModule": "main",
              "resources": \(resources)
            }
            """.write(to: app.appendingPathComponent("flowpkg.json"), atomically: true, encoding: .utf8)
        }

        func write(_ text: String, to relative: String) throws {
            let file = base.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }

        /// The report, without the warnings that a resource no module names (FP406) gives.
        func validate(allowingOutside: Bool = false) -> ValidationReport {
            var options = ValidationOptions()
            options.allowsOutsideLinks = allowingOutside
            var report = Validator.validate(projectAt: app, options: options)
            report.diagnostics.removeAll { $0.code.code == "FP406" }
            return report
        }

        func remove() { try? FileManager.default.removeItem(at: base) }
    }

    @Test func procSelfEnvironIsRefusedEvenWithTheOptIn() throws {
        let scratch = try Scratch(resources: #"[{"path": "/proc/self/environ", "name": "env"}]"#)
        defer { scratch.remove() }
        for allowing in [false, true] {
            let report = scratch.validate(allowingOutside: allowing)
            #expect(report.diagnostics.map(\.code.code) == ["FP112"], "\(report.diagnostics)")
            #expect(report.diagnostics.first?.place(relativeTo: scratch.app) == "flowpkg.json:6:17")
            #expect(report.diagnostics.first?.message.contains("'/proc/self/environ'") == true)
            #expect(report.resourceCount == 0)
        }
        var options = ExportOptions(output: scratch.base.appendingPathComponent("App.luapkg").path)
        options.allowsOutsideLinks = true
        let export = Exporter.export(projectAt: scratch.app, options: options)
        #expect(export.package == nil)
        #expect(!FileManager.default.fileExists(atPath: scratch.base.appendingPathComponent("App.luapkg").path))
    }

    @Test func etcPasswdNeedsTheOptIn() throws {
        let scratch = try Scratch(resources: #"[{"path": "/etc/passwd"}]"#)
        defer { scratch.remove() }
        let refused = scratch.validate()
        #expect(refused.diagnostics.map(\.code.code) == ["FP111"], "\(refused.diagnostics)")
        let refusal = try #require(refused.diagnostics.first)
        #expect(refusal.place(relativeTo: scratch.app) == "flowpkg.json:6:17")
        #expect(refusal.message.contains("'/etc/passwd'"))
        // The refusal names both ways to allow it.
        #expect(refusal.hint?.contains("--allow-outside-links") == true)
        #expect(refusal.hint?.contains("FLOWPKG_ALLOW_OUTSIDE_LINKS=1") == true)
        let allowed = scratch.validate(allowingOutside: true)
        #expect(allowed.diagnostics.isEmpty, "\(allowed.diagnostics)")
        #expect(allowed.project?.resources.map(\.key.description) == ["passwd"])
    }

    @Test func theRootFolderIsNeverWalked() throws {
        let scratch = try Scratch(resources: #"["Sources", {"path": "/", "name": "all"}]"#)
        defer { scratch.remove() }
        for allowing in [false, true] {
            let report = scratch.validate(allowingOutside: allowing)
            // One refusal, and no host file named: the walk never started.
            #expect(report.diagnostics.map(\.code.code) == ["FP112"], "\(report.diagnostics.prefix(5))")
            #expect(report.diagnostics.first?.place(relativeTo: scratch.app) == "flowpkg.json:6:28")
            #expect(report.resourceCount == 1)
        }
    }

    @Test func aFolderAboveTheProjectHoldsItAndIsRefused() throws {
        let scratch = try Scratch(resources: #"[{"path": "..", "name": "up"}]"#, repository: true)
        defer { scratch.remove() }
        let report = scratch.validate(allowingOutside: true)
        #expect(report.diagnostics.map(\.code.code) == ["FP112"], "\(report.diagnostics)")
        #expect(report.diagnostics.first?.message.contains("holds the project") == true)
    }

    @Test func aFileBesideTheProjectInItsRepositoryIsAllowed() throws {
        let scratch = try Scratch(resources: #"[{"path": "../texts/x.txt", "name": "x"}]"#, repository: true)
        defer { scratch.remove() }
        try scratch.write("forty-two\n", to: "texts/x.txt")
        let report = scratch.validate()
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
        #expect(report.project?.resources.map(\.key.description) == ["x.txt"])
    }

    @Test func aFileBesideTheProjectOutsideAnyRepositoryNeedsTheOptIn() throws {
        let scratch = try Scratch(resources: #"[{"path": "../texts/x.txt", "name": "x"}]"#)
        defer { scratch.remove() }
        try scratch.write("forty-two\n", to: "texts/x.txt")
        let refused = scratch.validate()
        #expect(refused.diagnostics.map(\.code.code) == ["FP111"], "\(refused.diagnostics)")
        #expect(refused.diagnostics.first?.message.contains("outside the project folder") == true)
        #expect(refused.diagnostics.first?.message.contains("'../texts/x.txt'") == true)
        let allowed = scratch.validate(allowingOutside: true)
        #expect(allowed.diagnostics.isEmpty, "\(allowed.diagnostics)")
        // Exported with the opt-in, the file's bytes are in the package.
        var options = ExportOptions(output: scratch.base.appendingPathComponent("App.luapkg").path)
        options.allowsOutsideLinks = true
        #expect(Exporter.export(projectAt: scratch.app, options: options).package != nil)
        options.allowsOutsideLinks = false
        #expect(Exporter.export(projectAt: scratch.app, options: options).package == nil)
    }

    @Test func theEnvironmentGivesTheOptInToExport() throws {
        let scratch = try Scratch(resources: #"[{"path": "../texts/x.txt", "name": "x"}]"#)
        defer { scratch.remove() }
        try scratch.write("forty-two\n", to: "texts/x.txt")
        let output = scratch.base.appendingPathComponent("App.luapkg").path
        #expect(!ExportOptions(output: output, environment: [:]).allowsOutsideLinks)
        let options = ExportOptions(output: output, environment: ["FLOWPKG_ALLOW_OUTSIDE_LINKS": "1"])
        #expect(options.allowsOutsideLinks)
        #expect(Exporter.export(projectAt: scratch.app, options: options).package != nil)
    }

    @Test func aFifoIsRefusedEvenWithTheOptIn() throws {
        let scratch = try Scratch(resources: #"[{"path": "../pipe", "name": "pipe"}]"#, repository: true)
        defer { scratch.remove() }
        #expect(mkfifo(scratch.base.appendingPathComponent("pipe").path, 0o600) == 0)
        for allowing in [false, true] {
            let report = scratch.validate(allowingOutside: allowing)
            #expect(report.diagnostics.map(\.code.code) == ["FP112"], "\(report.diagnostics)")
            #expect(report.diagnostics.first?.message.contains("FIFO") == true)
        }
    }

    @Test func aLuacheckrcLinkedOutOfTheProjectIsRefused() throws {
        let scratch = try Scratch(resources: "[]")
        defer { scratch.remove() }
        try scratch.write("globals = { 'fromOutside' }\n", to: "elsewhere/luacheckrc")
        try scratch.write("return fromOutside\n", to: "App/Sources/main.lua")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.app.appendingPathComponent(".luacheckrc").path,
            withDestinationPath: scratch.base.appendingPathComponent("elsewhere/luacheckrc").path)
        let refused = scratch.validate()
        #expect(refused.diagnostics.map(\.code.code).contains("FP111"), "\(refused.diagnostics)")
        #expect(refused.diagnostics.first { $0.code.code == "FP111" }?.place(relativeTo: scratch.app) == ".luacheckrc")
        // Its globals are not used: the read is undefined.
        #expect(refused.diagnostics.map(\.code.code).contains("FP405"), "\(refused.diagnostics)")
        let allowed = scratch.validate(allowingOutside: true)
        #expect(allowed.diagnostics.isEmpty, "\(allowed.diagnostics)")
    }

    @Test func aLuacheckrcLinkedToProcIsRefusedEvenWithTheOptIn() throws {
        let scratch = try Scratch(resources: "[]")
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: scratch.app.appendingPathComponent(".luacheckrc").path, withDestinationPath: "/proc/self/environ")
        let report = scratch.validate(allowingOutside: true)
        #expect(report.diagnostics.map(\.code.code) == ["FP112"], "\(report.diagnostics)")
    }
}

/// validate refuses what export would (FP503), so a project never passes one and fails the other.
@Suite struct EntryLimitTests {
    @Test func moreEntriesThanAPackageHoldsIsFP503() throws {
        let root = try Scratch("many").url
        let resources = root.appendingPathComponent("Resources")
        try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try #"{"name": "Many", "identifier": "com.example.many", "version": "1.0.0"}"#
            .write(to: root.appendingPathComponent("flowpkg.json"), atomically: true, encoding: .utf8)
        try "return 1\n".write(
            to: root.appendingPathComponent("Sources/main.lua"), atomically: true, encoding: .utf8)
        // With main.lua and the manifest, 65,535 resources are one entry too many.
        for index in 0..<65_535 {
            FileManager.default.createFile(
                atPath: resources.appendingPathComponent("r\(index).txt").path, contents: nil)
        }
        let (_, diagnostics) = ProjectLoader.load(from: root)
        let limit = diagnostics.filter { $0.code.code == "FP503" }
        #expect(limit.count == 1, "\(diagnostics.prefix(3))")
        #expect(limit.first?.message.contains("65536 modules, scripts and resources") == true, "\(limit)")
        #expect(limit.first?.severity == .error)
        try FileManager.default.removeItem(at: resources.appendingPathComponent("r0.txt"))
        #expect(!ProjectLoader.load(from: root).diagnostics.contains { $0.code.code == "FP503" })
    }
}
