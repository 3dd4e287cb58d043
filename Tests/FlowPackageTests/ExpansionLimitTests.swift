import FlowTestSupport
import Foundation
import Testing

@testable import FlowPackage

/// A zip bomb (an entry declaring far more bytes than it takes) is refused when the package
/// is opened, from the central directory alone, naming the entry and the limit; the writer
/// never produces one.
@Suite struct ExpansionLimitTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    @Test func zerosDeflatedAThousandFoldAreRefusedAtOpen() throws {
        let path = scratch.path("bomb.luapkg")
        // 32 MiB of zeros deflate to about 32 KB; manifest and headers tell the truth.
        try HostileZip.make(
            path,
            """
            zeros = bytes(32 << 20)
            m = manifest([("main", "modules/main.lua", b"return 1\\n")], [("zeros", "bin", "resources/zeros.bin", zeros)])
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", b"return 1\\n"), ("resources/zeros.bin", zeros)])
            """)
        let fileSize = try FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int
        #expect((fileSize ?? .max) <= 100_000)
        let expected = PackageProblem(
            .packageLimitExceeded, entry: "resources/zeros.bin",
            message: "declares 33554432 bytes packed in \(try packedSize(path, "resources/zeros.bin")): more than "
                + "the 100-fold expansion a package entry may have (entries over 1048576 bytes); refused as a zip bomb")
        #expect {
            try PackageReader(contentsOf: path)
        } throws: { error in
            (error as? PackageError)?.problems == [expected]
        }
        // verify reports it without reading the entry.
        #expect(PackageReader.verify(at: path) == [expected])
        // Hosts can set the limit: a looser one opens the package.
        let loose = PackageLimits(maxExpansionRatio: 2000)
        let reader = try PackageReader(contentsOf: path, limits: loose)
        #expect(try reader.resourceData(ResourceKey(name: "zeros", type: "bin")).count == 32 << 20)
    }

    @Test func smallEntriesMayExpandFreely() throws {
        // A megabyte of one byte (deflated ~1,000-fold) is within the allowance.
        let path = scratch.path("small.luapkg")
        try HostileZip.make(
            path,
            """
            blank = b" " * (1 << 20)
            m = manifest([("main", "modules/main.lua", blank)])
            write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", blank)])
            """)
        let reader = try PackageReader(contentsOf: path)
        #expect(try reader.moduleData(ModuleName("main")).count == 1 << 20)
        #expect(reader.verify().isEmpty)
    }

    @Test func writerStoresWhatWouldDeflatePastTheLimit() throws {
        let project = try SampleProject(scratch)
        let zeros = try scratch.file("project/Resources/zeros.txt", [UInt8](repeating: 0x30, count: 4 << 20))
        var input = project.input
        input.resources.append(.init(key: try ResourceKey(name: "zeros", type: "txt"), file: zeros))
        let first = scratch.path("a.luapkg"), second = scratch.path("b.luapkg")
        try PackageWriter.write(input, to: first)
        try PackageWriter.write(input, to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
        // Stored, so the package opens under the default limits; text that deflates less stays deflated.
        #expect(try packedSize(first, "resources/zeros.txt") == 4 << 20)
        #expect(try packedSize(first, "resources/texts/h2g2.txt") < 26_000 / 10)
        let reader = try PackageReader(contentsOf: first)
        #expect(
            try reader.resourceData(ResourceKey(name: "zeros", type: "txt")) == [UInt8](repeating: 0x30, count: 4 << 20)
        )
        #expect(reader.verify().isEmpty)
    }

    /// What the central directory says `entry` takes in the archive.
    private func packedSize(_ path: URL, _ entry: String) throws -> UInt64 {
        let file = try ZipFile(path: path.path)
        let directory = try ZipCentralDirectory(file: file, end: try file.endRecord())
        return try #require(directory.entries.first { directory.name(of: $0) == entry }).compressedSize
    }
}
