import FlowSupport
import FlowTestSupport
import Foundation
import Testing

/// `walkEntries`: the paths Foundation lists (and `walk`, built on it), each told file or folder as `lstat` tells it, links
/// not entered, and the folders `entering` refuses listed but not entered.
@Suite struct FolderWalkTests {
    @Test func entriesAreWhatWalkListsToldFileOrFolder() throws {
        let scratch = try Scratch("folder-walk")
        defer { scratch.remove() }
        for name in ["a.lua", "b/c.lua", "b/d/e.txt", ".hidden/f.lua", "vendor/g.lua", "h.lua/i.lua", "b/.j.lua"] {
            _ = try scratch.file(name, "return 1\n")
        }
        _ = try scratch.folder("empty")
        let root = scratch.url.path
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/b")
        try FileManager.default.createSymbolicLink(atPath: root + "/k.lua", withDestinationPath: root + "/a.lua")
        let entries = FileManager.default.walkEntries(root)
        // What Foundation lists (`walk` is `walkEntries`' paths), every path once.
        let listed = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        #expect(entries.map(\.path).sorted() == listed)
        #expect(FileManager.default.walk(root).sorted() == listed)
        #expect(
            FileManager.default.walk(root, skippingHidden: true).sorted()
                == listed.filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } })
        for entry in entries {
            #expect(entry.isFolder == FileManager.default.isFolder(atPath: root + "/" + entry.path), "\(entry.path)")
        }
        #expect(entries.filter(\.isFolder).map(\.path).sorted() == [".hidden", "b", "b/d", "empty", "h.lua", "vendor"])
        let pruned = FileManager.default.walkEntries(root + "/") { path, name in
            #expect(path.hasSuffix(name))
            return !name.hasPrefix(".") && name != "vendor"
        }
        #expect(
            pruned.map(\.path).sorted() == [
                ".hidden", "a.lua", "b", "b/.j.lua", "b/c.lua", "b/d", "b/d/e.txt", "empty", "h.lua", "h.lua/i.lua",
                "k.lua", "link", "vendor",
            ])
        #expect(FileManager.default.walkEntries(root + "/missing").isEmpty)
    }
}
