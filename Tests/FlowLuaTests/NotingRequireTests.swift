import FlowLua
import Testing

/// The noting `require` is stock Lua's own run in the noting wrapper's frame: every message and
/// traceback is the one a state without it gives, and it also notes a module already loaded.
@Suite struct NotingRequireTests {
    /// What `source` (run as `main.lua`) gives in a fresh state, with or without the noting
    /// `require`: its results, or its error's message and traceback.
    private static func outcome(of source: String, noting: Bool) throws -> String {
        let lua = try LuaState()
        if noting { _ = lua.stack.installNotingRequire() }
        _ = try lua.run(
            """
            package.preload.broken = function() local x = nil; return x.field end
            package.preload.fine = function(name, extra) return { name = name, extra = extra } end
            package.path, package.cpath = '', ''
            """, chunkName: "setup.lua")
        do {
            return "\(try lua.run(source, chunkName: "main.lua"))"
        } catch let error as LuaError {
            return "\(error.message)\n\(error.traceback ?? "")"
        }
    }

    @Test(arguments: [
        "require 'missing'",
        "local ok, message = pcall(require, 'missing'); return ok, message",
        "require(nil)",
        "require({})",
        "require 'broken'",
        "local function load() return require 'broken' end\nload()",
        "local m, extra = require 'fine'; return m.name, m.extra, extra, select('#', require 'fine')",
        "package.searchers = nil; require 'other'",
        "return coroutine.wrap(function() return require 'missing' end)()",
    ])
    func everyOutcomeIsStockLuas(source: String) throws {
        let stock = try Self.outcome(of: source, noting: false)
        let noting = try Self.outcome(of: source, noting: true)
        #expect(noting == stock)
        // The place of require's own errors is the caller's line, as stock Lua's.
        if source.hasPrefix("require 'missing'") {
            #expect(noting.hasPrefix("main.lua:1: module 'missing' not found:"))
        }
    }

    @Test func aModuleAlreadyLoadedIsNotedToo() throws {
        let lua = try LuaState()
        let stack = lua.stack
        let (chunks, requires) = stack.installNotingRequire()
        _ = try lua.run("package.preload.B = function() return 'b' end; require 'B'", chunkName: "setup.lua")
        var source = "return require('B')"
        try source.withUTF8 { try lua.load(UnsafeRawBufferPointer($0), chunkName: "A.lua") }
        stack.rawSetTopAsKey(inReferencedTable: chunks, to: "A")
        // B was loaded by setup.lua, outside any module: only A's require of it is noted.
        #expect(try lua.call(argumentCount: 0) == [.string("b")])
        let sets = stack.stringKeySets(inReferencedTable: requires)
        #expect(sets.map { String(decoding: $0.key, as: UTF8.self) } == ["A"])
        #expect(sets.first?.members.map { String(decoding: $0, as: UTF8.self) } == ["B"])
        #expect(stack.top == 0)
    }
}
