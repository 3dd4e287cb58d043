import Foundation
import FlowLua
import FlowTestSupport
import Testing
@testable import LuaSyntax

/// Every Lua file installed on this machine (Debian's lua-* packages): what Lua compiles, we parse.
@Suite struct LuaCorpusTests {
    @Test func parsesEveryInstalledLuaFile() throws {
        let files = InstalledLua.files()
        #expect(files.count > 50, "expected Debian's Lua packages under /usr/share/lua")
        let lua = try LuaState()
        var failures: [String] = []
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let compiles = (try? bytes.withUnsafeBytes { try lua.check($0, chunkName: path) }) != nil
            do {
                _ = try LuaParser.parse(bytes)
                if !compiles { failures.append("\(path): Lua rejects it, the parser accepted it") }
            } catch {
                if compiles { failures.append("\(path): \(error)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
