import Testing

@testable import FlowSupport

/// Path arithmetic on strings, and the one relative path flowpkg shows a person or records in
/// flowpkg.json.
@Suite struct PathTextTests {
    @Test func relativePaths() {
        #expect(PathText.relative("/a/b/c.lua", from: "/a/b/d/e") == "../../c.lua")
        #expect(PathText.relative("/a/b", from: "/a/b/d") == "..")
        #expect(PathText.relative("/a/b", from: "/a/b") == ".")
        #expect(PathText.relative("/a/b/c", from: "/a") == "b/c")
        #expect(PathText.relative("/x/y", from: "/a/b") == "../../x/y")
        #expect(PathText.relative("/", from: "/a") == "..")
    }

    @Test func partsAndResolving() {
        #expect(PathText.parent(of: "a/b/c") == "a/b")
        #expect(PathText.parent(of: "c") == ".")
        #expect(PathText.parent(of: "/c") == "/")
        #expect(PathText.lastComponent(of: "a/b/c.lua") == "c.lua")
        #expect(PathText.lastComponent(of: "c.lua") == "c.lua")
        #expect(PathText.resolve("../x/./y", against: "/a/b") == "/a/x/y")
        #expect(PathText.resolve("/abs/../z", against: "/a/b") == "/z")
        #expect(PathText.resolve("../../..", against: "/a") == "/")
    }
}
