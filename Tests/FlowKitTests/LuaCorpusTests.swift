import Foundation
import FlowLua
import Testing
@testable import LuaSyntax

/// Every Lua file installed on this machine (Debian's lua-* packages): what Lua compiles, we parse.
@Suite struct LuaCorpusTests {
    static func installedLuaFiles() -> [String] {
        let root = "/usr/share/lua"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".lua") }.map { "\(root)/\($0)" }.sorted()
    }

    @Test func parsesEveryInstalledLuaFile() throws {
        let files = Self.installedLuaFiles()
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
