import FlowSupport
import FlowTestSupport
import Foundation
import Testing
@testable import FlowPackage

@Suite struct PackageWriterTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    @Test func manifestComesFirstAndEntriesAreSorted() throws {
        let output = try SampleProject(scratch).write()
        let reader = try ArchiveReader(path: output.path)
        var names: [String] = []
        while let entry = try reader.nextEntry() {
            #expect(entry.kind == .regular)
            #expect(entry.permissions == 0o644)
            #expect(entry.modificationTime == PackageWriteOptions.defaultTimestamp)
            names.append(entry.path)
        }
        #expect(
            names == [
                "manifest.json", "modules/main.lua", "modules/ui/init.lua",
                "resources/img/logo.png", "resources/texts/h2g2.txt",
            ])
    }

    /// Every open reads the whole manifest: it is stored, not deflated (older packages with a
    /// deflated one still open, as every other deflated entry does).
    @Test func theManifestIsStored() throws {
        let output = try SampleProject(scratch).write()
        let directory = try PackageIndex.openDirectory(path: output.path, limits: .default)
        let manifest = try #require(directory.entries.first)
        #expect(directory.name(of: manifest) == Manifest.entryName)
        #expect(manifest.compressedSize == UInt64(manifest.size))
        let text = try #require(directory.entries.last)
        #expect(directory.name(of: text) == "resources/texts/h2g2.txt")
        #expect(text.compressedSize < UInt64(text.size))
    }

    @Test func manifestRecordsEveryEntryAndNoHostPath() throws {
        let project = try SampleProject(scratch)
        let output = try project.write()
        let manifest = try PackageReader.readManifest(at: output)
        #expect(manifest.identifier.rawValue == "com.example.sample")
        #expect(manifest.name == "Sample" && manifest.version == "1.2.3")
        #expect(manifest.startModule?.rawValue == "main")
        #expect(manifest.luaVersion == "5.4" && manifest.generator == ToolVersion.generator)
        #expect(manifest.modules.map(\.path) == ["modules/main.lua", "modules/ui/init.lua"])
        #expect(manifest.modules.map(\.name.rawValue) == ["main", "ui"])
        #expect(manifest.resources.map(\.path) == ["resources/img/logo.png", "resources/texts/h2g2.txt"])
        #expect(manifest.resources[1].size == 26_000)
        #expect(manifest.digest == manifest.computedDigest)
        let raw = try python(
            "import zipfile,sys; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('manifest.json').decode())",
            [output.path])
        #expect(!raw.contains(scratch.url.path))
        #expect(
            raw.hasPrefix(
                "{\n  \"formatVersion\": 2,\n  \"identifier\": \"com.example.sample\",\n  \"name\": \"Sample\","))
    }

    @Test func sameInputGivesSameBytesWhateverTheFileTimesAndOrder() throws {
        let project = try SampleProject(scratch)
        let first = try Data(contentsOf: project.write(to: "a.luapkg"))
        // Other file times and the inputs listed in another order (the CLI tests change the working directory).
        for (index, file) in (project.input.modules.map(\.file) + project.input.resources.map(\.file)).enumerated() {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: Double(1_600_000_000 + index * 7777))],
                ofItemAtPath: file.path)
        }
        var shuffled = project.input
        shuffled.modules.reverse()
        shuffled.resources.reverse()
        try PackageWriter.write(shuffled, to: scratch.path("b.luapkg"))
        #expect(try Data(contentsOf: scratch.path("b.luapkg")) == first)
    }

    @Test func entryTimesAreTheTimestampInUTC() throws {
        // libarchive fills the MS-DOS time fields through localtime: in UTC they hold the
        // timestamp itself (the flowpkg command always runs in UTC; see ExportCommandTests).
        let project = try SampleProject(scratch)
        let saved = ProcessInfo.processInfo.environment["TZ"]
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        setenv("TZ", "UTC0", 1)
        tzset()
        let package = try project.write(to: "utc.luapkg", options: .init(timestamp: 1_700_000_000))
        let stamp = try python(
            "import zipfile,sys; print(zipfile.ZipFile(sys.argv[1]).infolist()[1].date_time)", [package.path])
        #expect(stamp.trimmingCharacters(in: .whitespacesAndNewlines) == "(2023, 11, 14, 22, 13, 20)")
    }

    @Test func sourceDateEpochSetsTheEntryTime() throws {
        #expect(try PackageWriteOptions.timestamp(environment: [:]) == 315_532_800)
        #expect(try PackageWriteOptions.timestamp(environment: ["SOURCE_DATE_EPOCH": "1700000000"]) == 1_700_000_000)
        #expect(try PackageWriteOptions.timestamp(environment: ["SOURCE_DATE_EPOCH": "0"]) == 315_532_800)
        #expect(throws: PackageWriteOptions.TimestampError.self) {
            try PackageWriteOptions.timestamp(environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        }
        let output = try SampleProject(scratch).write(options: .init(timestamp: 1_700_000_000))
        let reader = try ArchiveReader(path: output.path)
        while let entry = try reader.nextEntry() { #expect(entry.modificationTime == 1_700_000_000) }
    }

    @Test func mediaIsStoredAndTextDeflated() throws {
        let output = try SampleProject(scratch).write()
        let listing = try python(
            """
            import zipfile,sys
            for i in zipfile.ZipFile(sys.argv[1]).infolist(): print(i.filename, i.compress_type, i.external_attr >> 16)
            """, [output.path])
        #expect(listing.contains("resources/img/logo.png 0 33188"))  // stored, regular file 0644
        #expect(listing.contains("resources/texts/h2g2.txt 8 33188"))  // deflated
        #expect(listing.contains("modules/main.lua 8 33188"))
        #expect(EntryCompression.forEntry("resources/a/b.JPG") == .store)
        #expect(EntryCompression.forEntry("resources/a.json") == .deflate)
        #expect(EntryCompression.forEntry("resources/.png") == .deflate)
    }

    @Test func otherZipToolsReadThePackage() throws {
        let output = try SampleProject(scratch).write()
        let pythonCheck = try python(
            "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print(len(z.namelist()))",
            [output.path])
        #expect(pythonCheck == "None\n5\n")
        let unzip = try runTool("unzip", ["-l", output.path])
        #expect(unzip.status == 0)
        #expect(unzip.output.contains("modules/ui/init.lua") && unzip.output.contains("5 files"))
        let test = try runTool("unzip", ["-tq", output.path])
        #expect(test.status == 0)
        let bsdtar = try runTool("bsdtar", ["-tf", output.path])
        #expect(bsdtar.status == 0)
        #expect(
            bsdtar.output
                == "manifest.json\nmodules/main.lua\nmodules/ui/init.lua\nresources/img/logo.png\nresources/texts/h2g2.txt\n"
        )
    }

    @Test func largeResourcesAreStreamedAndReadBack() throws {
        // Larger than what the writer keeps in memory between its two passes.
        let project = try SampleProject(scratch, mediaSize: Int(InputHashing.retainedFileLimit) * 2 + 12_345)
        let output = try project.write()
        let reader = try PackageReader(contentsOf: output)
        let logo = try reader.resourceData(ResourceKey(name: "img/logo", type: "png"))
        let same = logo == noise(Int(InputHashing.retainedFileLimit) * 2 + 12_345, seed: 42)
        #expect(same)
        #expect(reader.verify().isEmpty)
    }

    @Test func emptyProjectAndEmptyFilesAreValidPackages() throws {
        let empty = try scratch.file("empty.lua", "")
        let input = PackageInput(
            identifier: try PackageIdentifier("com.example.empty"), name: "E", version: "0",
            startModule: nil, modules: [.init(name: try ModuleName("empty"), relativePath: "empty.lua", file: empty)],
            resources: [])
        try PackageWriter.write(input, to: scratch.path("e.luapkg"))
        let reader = try PackageReader(contentsOf: scratch.path("e.luapkg"))
        #expect(try reader.moduleData(ModuleName("empty")) == [])
        var none = input
        none.modules = []
        try PackageWriter.write(none, to: scratch.path("none.luapkg"))
        #expect(try PackageReader(contentsOf: scratch.path("none.luapkg")).manifest.modules.isEmpty)
    }

    @Test func failedWriteLeavesTheOlderPackageAndNoTemporaryFile() throws {
        let project = try SampleProject(scratch)
        let output = try project.write()
        let before = try Data(contentsOf: output)
        var broken = project.input
        broken.resources.append(
            .init(key: try ResourceKey(name: "gone", type: "txt"), file: scratch.path("no/such/file.txt")))
        #expect {
            try PackageWriter.write(broken, to: output)
        } throws: { error in
            guard case PackageError.inputUnreadable(let file, let entry, _) = error else { return false }
            return file.hasSuffix("no/such/file.txt") && entry == "resources/gone.txt"
        }
        #expect(try Data(contentsOf: output) == before)
        #expect(try scratch.entries() == ["Sample-1.2.3.luapkg", "project"])
    }

    @Test func cancelledWriteLeavesNothing() throws {
        let project = try SampleProject(scratch, mediaSize: 6 << 20)
        let output = try project.write()
        let before = try Data(contentsOf: output)
        let cancellation = PackageCancellation()
        let options = PackageWriteOptions(
            progress: { if $0.done > 0 { cancellation.cancel() } }, cancellation: cancellation)
        #expect(throws: PackageError.cancelled(path: output.path)) {
            try PackageWriter.write(project.input, to: output, options: options)
        }
        #expect(try Data(contentsOf: output) == before)
        #expect(try scratch.entries() == ["Sample-1.2.3.luapkg", "project"])
    }

    @Test func progressReachesTheTotalPhaseByPhase() throws {
        let log = Locked<[PackageWriteProgress]>([])
        _ = try SampleProject(scratch).write(
            options: .init(progress: { progress in log.withLock { $0.append(progress) } }))
        let reports = log.withLock { $0 }
        // Hashing first, then writing; each phase ends at its total.
        #expect(!zip(reports, reports.dropFirst()).contains { $0.phase == .writing && $1.phase == .hashing })
        for phase in PackageWriteProgress.Phase.allCases {
            let last = reports.filter { $0.phase == phase }.max { $0.done < $1.done }
            #expect(last != nil && last!.done == last!.total && last!.total > 0, "\(phase)")
        }
    }

    @Test func unwritableOutputIsAClearError() throws {
        let project = try SampleProject(scratch)
        #expect(throws: PackageError.self) {
            try PackageWriter.write(project.input, to: scratch.path("missing/out.luapkg"))
        }
        let folder = scratch.path("locked")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect {
            try PackageWriter.write(project.input, to: folder)
        } throws: { error in
            "\(error)" == "\(folder.path): cannot write the package: it is a folder"
        }
    }

    @Test func inputsThePackageCouldNotHoldAreRefused() throws {
        let project = try SampleProject(scratch)
        var twice = project.input
        twice.modules.append(twice.modules[0])
        #expect(throws: PackageError.self) { try PackageWriter.write(twice, to: scratch.path("x.luapkg")) }
        var misplaced = project.input
        misplaced.modules[0].relativePath = "../ui/init.lua"
        #expect(throws: PackageError.self) { try PackageWriter.write(misplaced, to: scratch.path("x.luapkg")) }
        var noStart = project.input
        noStart.startModule = try ModuleName("nowhere")
        #expect {
            try PackageWriter.write(noStart, to: scratch.path("x.luapkg"))
        } throws: { "\($0)".contains("the start module nowhere is not among the modules") }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("x.luapkg").path))
    }
}
