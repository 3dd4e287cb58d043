import FlowTestSupport
import Foundation
import Testing

/// `flowpkg init` reads a tree as a person would (issue 46): asset folders as resources, spec
/// folders as tests, examples and benchmarks (`bench/`, a top-level `perf.lua`) left out,
/// rockspecs in rockspecs/, and a LÖVE game or a Neovim plugin given its host's luacheck std (a
/// LÖVE game `allow_defined_top` too, as its authors' own configurations have it). The fixtures are small trees of our own,
/// shaped like mrrescue, gitsigns.nvim and a library with rockspecs/ (Benchmarks/README.md
/// records init on the real ones); what init writes is kept as golden files.
@Suite struct InitTreeShapesTests {
    static let trees = ValidateCommandTests.fixtures.appendingPathComponent("init-trees")

    @Test(arguments: ["love-game", "nvim-plugin", "rockspecs-library"])
    func initWritesWhatAPersonWould(tree: String) throws {
        let scratch = try Scratch("init-shapes")
        defer { scratch.remove() }
        let folder = scratch.url.appendingPathComponent(tree)
        try FileManager.default.copyItem(at: Self.trees.appendingPathComponent(tree), to: folder)
        let result = try FlowpkgProcess.run(["init"], in: folder)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        var written = "flowpkg.json:\n"
        written += try String(contentsOf: folder.appendingPathComponent("flowpkg.json"), encoding: .utf8)
        let rc = folder.appendingPathComponent(".luacheckrc")
        if FileManager.default.fileExists(atPath: rc.path) {
            written += ".luacheckrc:\n" + (try String(contentsOf: rc, encoding: .utf8))
        }
        try ValidateCommandTests.assertGolden(written, "init-\(tree).txt")
        let validated = try FlowpkgProcess.run(["validate"], in: folder)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        #expect(!validated.stdout.contains("error:"), "\(validated.stdout)")
        if tree == "love-game" {
            // util.lua's top-level globals are the game's (`allow_defined_top`), and perf.lua,
            // a benchmark beside the game, is not validated.
            for left in ["clamp", "SPEED", "perf.lua"] {
                #expect(!validated.stdout.contains(left), "\(left): \(validated.stdout)")
            }
        }
    }
}
