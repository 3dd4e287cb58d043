import FlowDependencies
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

/// The cache: files kept under their SHA-256 and checked whenever read, and the readable
/// copies editors open, named by dependency and module path.
@Suite struct FileCacheTests {
    func makeCache() throws -> (FileCache, URL) {
        let folder = try Scratch("cache").url
        return (FileCache(root: folder.path), folder)
    }

    @Test func aReadableCopyIsNamedByModulePathAndMadeAgainWhenItDiffers() throws {
        let (cache, folder) = try makeCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Array("return { write = tostring }\n".utf8)
        let sha = try cache.store(bytes)
        let copy = try #require(
            try cache.readableCopy(
                of: sha, dependency: "penlight", version: "1.13.1-1", tag: "0123456789abcdef", path: "pl/pretty.lua"))
        #expect(copy == folder.path + "/sources/penlight-1.13.1-1-01234567/pl/pretty.lua")
        #expect(FileManager.default.contents(atPath: copy).map { [UInt8]($0) } == bytes)
        #expect(try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int == 0o444)
        // Changed by hand: it is made again from the checked file.
        try FileManager.default.removeItem(atPath: copy)
        try Data("changed".utf8).write(to: URL(fileURLWithPath: copy))
        _ = try cache.readableCopy(
            of: sha, dependency: "penlight", version: "1.13.1-1", tag: "0123456789abcdef", path: "pl/pretty.lua")
        #expect(FileManager.default.contents(atPath: copy).map { [UInt8]($0) } == bytes)
        // Nothing for a file the cache lacks.
        #expect(
            try cache.readableCopy(
                of: String(repeating: "0", count: 64), dependency: "penlight", version: "1", tag: "t", path: "x.lua")
                == nil)
    }

    @Test func aTamperedFileOrAPathOutsideTheCacheIsRefused() throws {
        let (cache, folder) = try makeCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sha = try cache.store(Array("return 1\n".utf8))
        for path in ["../escape.lua", "/etc/x.lua", "pl//x.lua", "pl/./x.lua", ""] {
            #expect(throws: DependencyError.self, "\(path)") {
                try cache.readableCopy(of: sha, dependency: "p", version: "1", tag: "t", path: path)
            }
        }
        #expect(throws: DependencyError.self) {
            try cache.readableCopy(of: sha, dependency: "../up", version: "1", tag: "t", path: "x.lua")
        }
        try Data("return 2\n".utf8).write(to: URL(fileURLWithPath: cache.path(for: sha)))
        #expect(
            throws: DependencyError.hashMismatch(
                file: cache.path(for: sha), expected: sha, actual: SHA256.hex(of: Array("return 2\n".utf8)))
        ) {
            try cache.readableCopy(of: sha, dependency: "p", version: "1", tag: "t", path: "x.lua")
        }
    }

    /// A cache where no copy can be written (here `sources` is a file): the checked file itself.
    @Test func withoutRoomForACopyTheCheckedFileIsUsed() throws {
        let (cache, folder) = try makeCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sha = try cache.store(Array("return 1\n".utf8))
        try Data().write(to: folder.appendingPathComponent("sources"))
        #expect(
            try cache.readableCopy(of: sha, dependency: "p", version: "1", tag: "t", path: "x.lua")
                == cache.path(for: sha))
    }
}
