import FlowTestSupport
import Foundation
import Testing

/// `flowpkg fmt --check` over many files: the diffs, written as the workers finish, come out
/// in the files' order with the names shown, the same bytes as each file checked alone (past
/// the 64 KB a write holds too).
@Suite struct FmtCheckDiffOrderTests {
    @Test func manyFilesGiveTheDiffsOfEachAloneInPathOrder() throws {
        let scratch = try Scratch("cli-fmt-order")
        defer { scratch.remove() }
        var names: [String] = []
        for index in 0..<24 {
            let lines = index % 6 == 0 ? 4_000 : 1 + index % 4
            let text = index % 5 == 2 ? "local x = 1\n" : String(repeating: "print( 'x' )\n", count: lines)
            let name = "src/m\(index).lua"
            _ = try scratch.file(name, text)
            names.append(name)
        }
        _ = try scratch.file("src/broken.lua", "local y =\n")
        let all = try FlowpkgProcess.run(["fmt", "--check", "src"], in: scratch.url)
        #expect(all.status == 1)
        #expect(all.stderr == "src/broken.lua:2:1: error: unexpected symbol near '<eof>'; not formatted [FP301]\n")
        var alone = ""
        for name in names.sorted() {
            let one = try FlowpkgProcess.run(["fmt", "--check", name], in: scratch.url)
            alone += one.stdout
        }
        #expect(all.stdout.utf8.count > 1 << 17)
        #expect(all.stdout == alone)
        let inside = try FlowpkgProcess.run(["fmt", "--check", "."], in: scratch.url.appendingPathComponent("src"))
        #expect(inside.stdout == alone.replacingOccurrences(of: "src/", with: ""))
    }
}
