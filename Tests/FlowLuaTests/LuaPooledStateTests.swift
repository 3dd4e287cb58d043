import FlowLua
import Testing

/// A state whose small blocks come from its own pool (what a context makes) runs what a stock
/// state runs, with the same results, across blocks that grow and shrink over the pool's
/// 512-byte bound, and a state closed twice or with finalizers pending gives everything back.
@Suite struct LuaPooledStateTests {
    static let program = """
        local parts, sizes = {}, 0
        for i = 1, 2000 do
          local s = string.rep(string.char(65 + i % 26), i % 700)
          parts[#parts + 1] = s
          sizes = sizes + #s
          if i % 3 == 0 then parts[#parts] = nil end
        end
        local t = {}
        for i = 1, 300 do t[i] = i * 2; t['k' .. i] = { i } end
        for i = 1, 300 do t['k' .. i] = nil end
        collectgarbage()
        local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
        local first = co(1)
        local grown = setmetatable({}, { __gc = function() end })
        for i = 1, 100 do grown[i] = string.format('%d:%s', i, string.rep('x', i * 7)) end
        return sizes, #parts, t[300], first, co(21), #grown[100], collectgarbage('count') > 0
        """

    @Test func aPooledStateRunsAsAStockStateDoes() throws {
        let stock = try LuaState()
        let pooled = try LuaState(openLibraries: true, pooled: true)
        let expected = try stock.run(Self.program, chunkName: "program.lua")
        #expect(
            expected == [
                .integer(669_600), .integer(1334), .integer(600), .integer(2), .integer(42), .integer(704), .bool(true),
            ])
        #expect(try pooled.run(Self.program, chunkName: "program.lua") == expected)
        #expect(
            try pooled.run("warn('@on') warn('@off') return select('#', warn('x'))", chunkName: "warn.lua") == [
                .integer(0)
            ])
        pooled.close()
        pooled.close()
    }

    /// The pooled state's global table and `package.loaded` are made at their full size before
    /// the libraries fill them: the same tables in every role a stock state gives them.
    @Test func theGlobalAndLoadedTablesKeepTheirRoles() throws {
        let program = """
            local names = {}
            for name, value in pairs(_G) do names[#names + 1] = name end
            table.sort(names)
            local count = 0
            for _ in pairs(package.loaded) do count = count + 1 end
            return table.concat(names, ' '), count, _G == _ENV, package.loaded._G == _G,
              require('string') == string, load('return _ENV')() == _G, package.loaded.package == package
            """
        let stock = try LuaState()
        let pooled = try LuaState(openLibraries: true, pooled: true)
        let expected = try stock.run(program, chunkName: "roles.lua")
        #expect(expected.count == 7 && expected[1] == .integer(10))
        #expect(expected[2...].allSatisfy { $0 == .bool(true) })
        #expect(try pooled.run(program, chunkName: "roles.lua") == expected)
    }

    /// The libraries are opened with the collector stopped; it runs again after, its first
    /// cycle due once the state has doubled: a finalizer of a program's first lines runs at
    /// close (as lua5.4 runs it), or when the program collects, and garbage is collected.
    @Test func theCollectorRunsAgainWithItsFirstCycleAfterTheStateDoubles() throws {
        let pooled = try LuaState(openLibraries: true, pooled: true)
        let program = """
            finalized = false
            setmetatable({}, { __gc = function() finalized = true end })
            local t = {}
            for i = 1, 100 do t[i] = { i } end
            local early = finalized
            collectgarbage()
            return collectgarbage('isrunning'), early, finalized
            """
        #expect(try pooled.run(program, chunkName: "gc.lua") == [.bool(true), .bool(false), .bool(true)])
        let churn = """
            local before = collectgarbage('count')
            for i = 1, 20000 do local t = { i, tostring(i) } end
            return collectgarbage('count') < before + 2000
            """
        #expect(try pooled.run(churn, chunkName: "churn.lua") == [.bool(true)])
    }

    @Test func manyPooledStatesComeAndGo() throws {
        for round in 0..<200 {
            let state = try LuaState(openLibraries: true, pooled: true)
            #expect(
                try state.run("return #string.rep('ab', ...)", chunkName: "r.lua", arguments: [.integer(Int64(round))])
                    == [.integer(Int64(round * 2))])
        }
    }
}
