import FlowTestSupport
import Foundation
import Testing

@testable import FlowProject

/// Issue 47: the editor's catalogue of the project's types is built once, and an edit of a file
/// the editor has open adds that module's declarations to a copy of it; the catalogue of every
/// other module is not built again for the first edit of an open file (counted, never timed).
@Suite struct SessionTypeCatalogTests {
    static func project() throws -> Scratch {
        let scratch = try Scratch("session-types")
        try scratch.file(
            "flowpkg.json",
            """
            {"name": "Types", "identifier": "com.example.types", "version": "0.1.0", "startModule": "Main",
             "sources": ["Sources"], "resources": [], "environment": "lua"}
            """)
        try scratch.file("Sources/Main.lua", "local Util = require \"Util\"\nprint(Util.double(2))\n")
        try scratch.file("Sources/Util.lua", "local Util = {}\nfunction Util.double(n) return n * 2 end\nreturn Util\n")
        try scratch.file("Sources/Other.lua", "local Other = {}\nfunction Other.one() return 1 end\nreturn Other\n")
        return scratch
    }

    static let tripled = Array(
        "local Util = {}\nfunction Util.double(n) return n * 2 end\nfunction Util.triple(n) return n * 3 end\nreturn Util\n"
            .utf8)

    @Test func theFirstEditOfAnOpenFileBuildsNoOtherModulesAgain() throws {
        let scratch = try Self.project()
        defer { scratch.remove() }
        let session = ValidationSession(projectAt: scratch.url)
        let catalog = SessionTypeCatalog()
        let open = try #require(session.moduleFiles.map(\.path).first { $0.hasSuffix("/Util.lua") })

        let before = catalog.catalog(of: session, editing: [open])
        #expect(before.exports(ofModule: "Util").keys.sorted() == ["double"])
        #expect(catalog.baseBuilds == 1)

        #expect(session.setBuffer(Self.tripled, forPath: open))
        let after = catalog.catalog(of: session, editing: [open])
        #expect(after.exports(ofModule: "Util").keys.sorted() == ["double", "triple"])
        #expect(after.exports(ofModule: "Other").keys.sorted() == ["one"])
        #expect(catalog.baseBuilds == 1)
    }

    @Test func anEditOfAFileNotOpenBuildsTheOthersAgainWithoutIt() throws {
        let scratch = try Self.project()
        defer { scratch.remove() }
        let session = ValidationSession(projectAt: scratch.url)
        let catalog = SessionTypeCatalog()
        let util = try #require(session.moduleFiles.map(\.path).first { $0.hasSuffix("/Util.lua") })
        _ = catalog.catalog(of: session)
        #expect(catalog.baseBuilds == 1)
        #expect(session.setBuffer(Self.tripled, forPath: util))
        let after = catalog.catalog(of: session)
        #expect(after.exports(ofModule: "Util").keys.sorted() == ["double", "triple"])
        #expect(catalog.baseBuilds == 2)
        // Nothing analysed since: the same catalogue, nothing built.
        _ = catalog.catalog(of: session, editing: [util])
        #expect(catalog.baseBuilds == 2)
    }
}
