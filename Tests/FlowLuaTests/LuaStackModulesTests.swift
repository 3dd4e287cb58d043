import FlowLua
import Testing

/// `package.loaded`, `package.preload` and `_G` through the typed operations, on a real state;
/// every operation leaves the stack as it found it.
@Suite struct LuaStackModulesTests {
    @Test func moduleResultIsStoredAsRequireStoresIt() throws {
        let lua = try LuaState()
        let stack = lua.stack
        #expect(stack.loadedModule("A") == nil)
        stack.push(.string("a"))
        #expect(stack.popModuleResult(as: "A", keepingStoredValue: true) == .string("a"))
        #expect(stack.loadedModule("A") == .string("a"))
        // Nothing returned: true is stored.
        stack.push(.nil)
        #expect(stack.popModuleResult(as: "B", keepingStoredValue: true) == .bool(true))
        // Nothing returned, but the chunk stored a value itself: that value is kept.
        try lua.run("package.loaded.C = 'own'", chunkName: "c.lua")
        stack.push(.nil)
        #expect(stack.popModuleResult(as: "C", keepingStoredValue: true) == .string("own"))
        #expect(stack.top == 0)
    }

    @Test func reloadResultReplacesTheEntry() throws {
        let lua = try LuaState()
        let stack = lua.stack
        try lua.run("package.loaded.A = 'old'", chunkName: "a.lua")
        stack.push(.string("new"))
        #expect(stack.popModuleResult(as: "A", keepingStoredValue: false) == .string("new"))
        #expect(stack.loadedModule("A") == .string("new"))
        stack.push(.nil)
        #expect(stack.popModuleResult(as: "A", keepingStoredValue: false) == .nil)
        #expect(stack.loadedModule("A") == .bool(true))
        stack.forgetModule("A")
        #expect(stack.loadedModule("A") == nil)
        #expect(!stack.isModuleLoaded("A"))
        #expect(stack.top == 0)
    }

    @Test func preloadedOpenerRunsOnRequire() throws {
        let lua = try LuaState()
        lua.stack.setPreload("native") { L in
            LuaStack(L!, bridge: nil).push(.string("opened"))
            return 1
        }
        // require returns the module and its loader data (":preload:").
        #expect(
            try lua.run("return require('native')", chunkName: "r.lua") == [.string("opened"), .string(":preload:")])
        #expect(lua.stack.top == 0)
    }

    @Test func globalsGoThroughMetamethods() throws {
        let lua = try LuaState()
        let stack = lua.stack
        try stack.setGlobal("answer", .integer(42))
        #expect(try stack.global("answer") == .integer(42))
        try lua.run(
            """
            setmetatable(_G, {
              __index = function(_, k) return 'default ' .. k end,
              __newindex = function(_, k) error('strict: ' .. k, 2) end,
            })
            """, chunkName: "strict.lua")
        #expect(try stack.global("missing") == .string("default missing"))
        #expect(throws: LuaError.self) { try stack.setGlobal("other", .bool(true)) }
        #expect(stack.top == 0)
    }
}
