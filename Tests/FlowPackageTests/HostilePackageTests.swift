import FlowTestSupport
import Foundation
import Testing
@testable import FlowPackage

/// Every hostile package is refused with a message naming the file and the entry, and
/// never crashes, hangs or reads without bound. These run the real reader on real zips.
@Suite struct HostilePackageTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    /// Builds a zip, opens it, and returns the error the reader threw (nil if it opened).
    private func openError(_ name: String, _ script: String) throws -> PackageError? {
        let path = scratch.path(name)
        try HostileZip.make(path, script)
        do {
            _ = try PackageReader(contentsOf: path)
            return nil
        } catch let error as PackageError {
            return error
        }
    }

    private func problems(_ name: String) -> [PackageProblem] { PackageReader.verify(at: scratch.path(name)) }

    @Test func wellFormedHostileBaselineOpens() throws {
        // The helpers themselves build a valid package, so each test below breaks one rule.
        #expect(
            try openError(
                "ok.luapkg",
                """
                m, e = valid_entries()
                write(sys.argv[1], [("manifest.json", json.dumps(m))] + e)
                """) == nil)
        #expect(problems("ok.luapkg").isEmpty)
    }

    @Test func moduleInflatingFarPastItsSizeIsStoppedThere() throws {
        // 64 MB of zeros deflate to ~64 KB; the headers and the manifest all claim 9 bytes.
        let path = scratch.path("bomb.luapkg")
        try HostileZip.make(
            path,
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", b"return 1\\n" + bytes(64_000_000)), e[1]])
            patch_size(sys.argv[1], "modules/main.lua", 9)
            """)
        let reader = try PackageReader(contentsOf: path)
        #expect {
            try reader.moduleData(ModuleName("main"))
        } throws: { error in
            "\(error)"
                == "\(path.path): modules/main.lua: holds more than the 9 bytes the manifest declares; reading stopped there"
        }
        #expect(throws: PackageError.self) { try reader.allModules() }
        #expect(reader.verify().map(\.entry) == ["modules/main.lua"])
    }

    @Test func entryWhoseArchiveSizeDisagreesWithTheManifestIsRefusedAtOpen() throws {
        let error = try openError(
            "size.luapkg",
            """
            m, e = valid_entries()
            import random
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", b"return 1\\n" + random.Random(1).randbytes(5_000_000)), e[1]])
            """)
        #expect(
            error?.problems == [
                PackageProblem(
                    .corruptEntry, entry: "modules/main.lua",
                    message: "the archive declares 5000009 bytes; the manifest lists 9")
            ])
    }

    @Test func hugeManifestIsRefusedWithoutReadingIt() throws {
        let error = try openError(
            "big.luapkg",
            """
            write(sys.argv[1], [("manifest.json", b" " * 60_000_000 + b"{}")])
            """)
        #expect(error == .manifestTooLarge(path: scratch.path("big.luapkg").path, size: 60_000_002, limit: 16 << 20))
        // The same manifest with headers that lie about its size: reading stops at the limit.
        let lying = try openError(
            "lying.luapkg",
            """
            write(sys.argv[1], [("manifest.json", b" " * 60_000_000 + b"{}")])
            patch_size(sys.argv[1], "manifest.json", 100)
            """)
        guard case .manifestTooLarge(_, let size, _)? = lying else {
            Issue.record("expected manifestTooLarge, got \(String(describing: lying))"); return
        }
        #expect(size <= (16 << 20) + 64 * 1024)
    }

    @Test func deeplyNestedManifestIsRefused() throws {
        let error = try openError(
            "deep.luapkg",
            """
            write(sys.argv[1], [("manifest.json", "[" * 1_000_000 + "]" * 1_000_000)])
            """)
        guard case .invalidManifest(_, let problems)? = error else {
            Issue.record("got \(String(describing: error))"); return
        }
        #expect(problems.count == 1)
        #expect(problems[0].entry == "manifest.json")
        #expect(problems[0].message.contains("nested deeper than 16 levels"))
    }

    @Test func hundredThousandEntriesAreRefusedAtOnce() throws {
        let error = try openError(
            "many.luapkg",
            """
            with zipfile.ZipFile(sys.argv[1], 'w') as z:
                z.writestr("manifest.json", "{}")
                for i in range(100_000): z.writestr(f"resources/r{i}", b"")
            """)
        #expect(error == .tooManyEntries(path: scratch.path("many.luapkg").path, count: 100_001, limit: 65_536))
        #expect("\(error!)".hasSuffix("the archive holds 100001 entries; a package holds at most 65536"))
    }

    @Test func duplicateEntriesAreRefused() throws {
        let error = try openError(
            "dup.luapkg",
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m))] + e + [e[0]])
            """)
        #expect(
            error?.problems == [
                PackageProblem(
                    .entryNotListed, entry: "modules/main.lua",
                    message: "appears 2 times in the archive; a package holds each entry once")
            ])
        let manifestTwice = try openError(
            "dup2.luapkg",
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m))] + e + [("manifest.json", "{}")])
            """)
        #expect(manifestTwice?.problems.map(\.entry) == ["manifest.json"])
    }

    @Test func emptyRandomAndTruncatedFilesAreNotPackages() throws {
        let empty = try scratch.file("empty.luapkg", [])
        #expect(throws: PackageError.notAPackage(path: empty.path, reason: "the file is empty")) {
            try PackageReader(contentsOf: empty)
        }
        let random = try scratch.file("random.luapkg", noise(200_000, seed: 9))
        #expect {
            try PackageReader(contentsOf: random)
        } throws: { error in
            guard case PackageError.notAPackage(let path, _) = error else { return false }
            return path == random.path
        }
        let whole = try SampleProject(scratch).write()
        let data = try Data(contentsOf: whole)
        for cut in [data.count / 2, data.count - 10, 30] {
            let truncated = try scratch.file("truncated-\(cut).luapkg", Array(data.prefix(cut)))
            #expect(throws: PackageError.self) { try PackageReader(contentsOf: truncated) }
            #expect(!PackageReader.verify(at: truncated).isEmpty)
        }
        let missing = scratch.path("nothing-here.luapkg")
        #expect {
            try PackageReader(contentsOf: missing)
        } throws: { "\($0)" == "\(missing.path): cannot read the package: No such file or directory" }
        #expect(throws: PackageError.unreadable(path: scratch.url.path, reason: "it is a folder, not a file")) {
            try PackageReader(contentsOf: scratch.url)
        }
    }

    @Test func unsafeEntryNamesAreRefused() throws {
        let error = try openError(
            "paths.luapkg",
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m))] + e
                  + [("../evil.lua", "x"), ("/etc/evil", "x"), ("modules\\\\evil.lua", "x"), ("modules/./x.lua", "x")])
            """)
        let byEntry = Dictionary(
            (error?.problems ?? []).map { ($0.entry ?? "", $0.message) }, uniquingKeysWith: { a, _ in a })
        #expect(byEntry["../evil.lua"] == "the entry name contains '..'")
        #expect(byEntry["/etc/evil"] == "the entry name is an absolute path")
        #expect(byEntry["modules\\evil.lua"] == "the entry name contains a backslash")
        #expect(byEntry["modules/./x.lua"] == "the entry name contains a '.' part")
        // A manifest pointing a module outside its folder is refused before any entry is read.
        let listed = try openError(
            "listed.luapkg",
            """
            m = manifest([("main", "modules/../../etc/passwd", b"x")])
            write(sys.argv[1], [("manifest.json", json.dumps(m))])
            """)
        guard case .invalidManifest(_, let problems)? = listed else {
            Issue.record("got \(String(describing: listed))"); return
        }
        #expect(
            problems.contains(
                PackageProblem(
                    .invalidManifest, entry: "manifest.json",
                    message: "module main: modules/../../etc/passwd: the entry name contains '..'")))
    }

    @Test func symlinksDirectoriesAndUnlistedEntriesAreRefused() throws {
        let error = try openError(
            "kinds.luapkg",
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", "/etc/passwd", "symlink"), e[1],
                                ("resources/", b"", "dir"), ("resources/extra.txt", "surprise")])
            """)
        let problems = error?.problems ?? []
        #expect(
            problems.contains(
                PackageProblem(
                    .unsafeEntry, entry: "modules/main.lua",
                    message: "is a symbolic link; a package holds only regular files")))
        #expect(
            problems.contains(PackageProblem(.unsafeEntry, entry: "resources/", message: "the entry is a directory")))
        #expect(
            problems.contains(
                PackageProblem(
                    .entryNotListed, entry: "resources/extra.txt",
                    message: "is in the archive but not listed in the manifest")))
    }

    @Test func missingEntriesAndMissingStartModuleAreRefused() throws {
        let error = try openError(
            "missing.luapkg",
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m)), e[0]])
            """)
        #expect(
            error?.problems == [
                PackageProblem(
                    .entryNotListed, entry: "modules/ui.lua",
                    message: "is listed in the manifest but missing from the archive")
            ])
        let noStart = try openError(
            "nostart.luapkg",
            """
            m = manifest([("ui", "modules/ui.lua", b"x")], start="main")
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/ui.lua", "x")])
            """)
        #expect(
            noStart?.problems == [
                PackageProblem(
                    .invalidManifest, entry: "manifest.json",
                    message: "the start module main is not among the package's modules")
            ])
    }

    @Test func manifestMustComeFirstAndHaveEveryField() throws {
        let second = try openError(
            "second.luapkg",
            """
            m, e = valid_entries()
            write(sys.argv[1], e + [("manifest.json", json.dumps(m))])
            """)
        #expect(second == .manifestNotFirst(path: scratch.path("second.luapkg").path, firstEntry: "modules/main.lua"))
        let fields = try openError(
            "fields.luapkg",
            """
            m, e = valid_entries()
            del m["version"]; m["luaVersion"] = 5.4; m["modules"][0]["size"] = "9"
            write(sys.argv[1], [("manifest.json", json.dumps(m))] + e)
            """)
        let messages = fields?.problems.map(\.message) ?? []
        #expect(messages.contains("the manifest has no \"version\""))
        #expect(messages.contains("the manifest \"luaVersion\" is a number, expected a string"))
        #expect(messages.contains("modules[0] \"size\" is a string, expected an integer"))
        let syntax = try openError(
            "syntax.luapkg",
            """
            write(sys.argv[1], [("manifest.json", '{"formatVersion": 1,')])
            """)
        #expect(syntax?.problems.first?.message.hasPrefix("not valid JSON at byte 20") == true)
        let twiceKey = try openError(
            "key.luapkg",
            """
            write(sys.argv[1], [("manifest.json", '{"name": "a", "name": "b"}')])
            """)
        #expect(twiceKey?.problems.first?.message.contains("the key \"name\" appears twice") == true)
    }

    @Test func editedManifestFailsItsDigest() throws {
        let error = try openError(
            "digest.luapkg",
            """
            m, e = valid_entries(main=b"return 2\\n")
            good, _ = valid_entries()
            m["digest"] = good["digest"]
            write(sys.argv[1], [("manifest.json", json.dumps(m))] + e)
            """)
        #expect(error?.problems.count == 1)
        #expect(error?.problems.first?.message.hasPrefix("the digest does not match the manifest") == true)
    }

    @Test func editedModuleByteIsNamedByVerify() throws {
        // Content changed with a correct zip CRC: only the manifest's SHA-256 can tell.
        let recrc = scratch.path("recrc.luapkg")
        try HostileZip.make(
            recrc,
            """
            m, e = valid_entries()
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", b"return 7\\n"), e[1]])
            """)
        let problems = PackageReader.verify(at: recrc)
        #expect(problems.count == 1)
        #expect(problems.first?.entry == "modules/main.lua")
        #expect(problems.first?.message.hasPrefix("sha256 mismatch: the manifest lists ") == true)
        #expect(throws: PackageError.self) { try PackageReader(contentsOf: recrc).moduleData(ModuleName("main")) }
        // One byte flipped inside a package flowpkg wrote: deflated module and stored resource.
        for entry in ["modules/ui/init.lua", "resources/img/logo.png"] {
            let package = try SampleProject(scratch).write(to: "flip-\(entry.count).luapkg")
            try python(HostileZip.library + "\nflip_byte(sys.argv[1], sys.argv[2])", [package.path, entry])
            let found = PackageReader.verify(at: package)
            #expect(found.map(\.entry) == [entry], "\(found)")
        }
    }
}
