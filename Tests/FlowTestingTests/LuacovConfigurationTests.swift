import FlowTesting
import Foundation
import Testing

/// `.luacov`'s include and exclude, read through LuaSandbox and matched as luacov's
/// `runner.file_included` matches them (the path without `.lua`, Lua patterns).
@Suite struct LuacovConfigurationTests {
    static let modules = ["src/calc.lua", "src/shapes/square.lua", "src/unused.lua", "lib/vendor.lua"]

    func read(_ text: String) throws(TestSetupError) -> LuacovConfiguration? {
        let project = try! SpecProject(files: [".luacov": text])
        defer { project.remove() }
        return try LuacovConfiguration.read(inProject: project.root.path)
    }

    @Test func globalsAsLuacovWritesThem() throws {
        let configuration = try #require(try read("include = { 'src/' }\nexclude = { 'shapes' }\n"))
        #expect(configuration == LuacovConfiguration(include: ["src/"], exclude: ["shapes"]))
        #expect(try configuration.included(Self.modules) == ["src/calc.lua", "src/unused.lua"])
    }

    @Test func aReturnedTableAndAnchoredPatterns() throws {
        let configuration = try #require(try read("return { exclude = { 'unused$', '^lib/' } }\n"))
        #expect(try configuration.included(Self.modules) == ["src/calc.lua", "src/shapes/square.lua"])
        // luacov strips `.lua` before matching: `calc$` matches src/calc.lua.
        let anchored = LuacovConfiguration(include: ["calc$"])
        #expect(try anchored.included(Self.modules) == ["src/calc.lua"])
    }

    @Test func noFileAndEmptyListsKeepEveryModule() throws {
        let project = try SpecProject(files: [:])
        defer { project.remove() }
        #expect(try LuacovConfiguration.read(inProject: project.root.path) == nil)
        let empty = try #require(try read("statsfile = 'luacov.stats.out'\ninclude = {}\n"))
        #expect(try empty.included(Self.modules) == Self.modules)
    }

    @Test func badFilesAreRefusedWithTheirReason() throws {
        #expect {
            try read("while true do end\n")
        } throws: { error in
            "\(error)".contains(".luacov") && "\(error)".contains("fix it")
        }
        #expect {
            try read("include = 'src'\n")
        } throws: { error in
            "\(error)".contains("'include' must be a list of Lua patterns")
        }
        #expect {
            try LuacovConfiguration(include: ["[unclosed"]).included(Self.modules)
        } throws: { error in
            "\(error)".contains(".luacov") && "\(error)".contains("malformed pattern")
        }
    }
}
