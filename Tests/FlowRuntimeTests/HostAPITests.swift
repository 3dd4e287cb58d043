import FlowLoader
import FlowPackage
import FlowTestSupport
import Foundation
import Testing

@testable import FlowRuntime

/// The host API, `print`, `loadfile` and `dofile` a context installs (C closures since the
/// host_launch work): errors point at the caller's line, a message handler and a script run by
/// `dofile` may yield, handlers added while a message is delivered wait for the next one, and a
/// resource delivered again reports every object that refused it.
@Suite struct HostAPITests {
    @Test func argumentErrorsNameTheCallersLine() throws {
        let (context, _) = try makeContext(resources: ["h2g2.txt": "forty-two"])
        let messages = try context.execute(
            """
            local function problem(f) local ok, message = pcall(f) return ok and "no error" or message end
            return problem(function() getResource(5) end),
              problem(function() getResource('h2g2', {}) end),
              problem(function() getResource('h2g2', 'txt', {}) end),
              problem(function() addMessageHandler('m') end),
              problem(function() addMessageHandler('m', {}, 7) end),
              problem(function() postMessage() end)
            """, chunkName: "main.lua")
        #expect(
            messages == [
                "main.lua:2: bad argument #1 to 'getResource' (string expected, got number)",
                "main.lua:3: bad argument #2 to 'getResource' (string expected, got table)",
                "main.lua:4: bad argument #4 to 'getResource' (a key is needed with an object)",
                "main.lua:5: bad argument #2 to 'addMessageHandler' (function expected, got nil)",
                "main.lua:6: bad argument #3 to 'addMessageHandler' (string expected, got number)",
                "main.lua:7: bad argument #1 to 'postMessage' (string expected, got nil)",
            ])
    }

    @Test func aHandlerMayYieldAndTheOthersStillGetTheMessage() throws {
        let (context, _) = try makeContext()
        let host = Recorder<[LuaValue]>()
        context.addMessageHandler("tick") { host.append($0) }
        let results = try context.execute(
            """
            log = {}
            addMessageHandler('tick', function(n) log[#log + 1] = 'a' .. n; coroutine.yield('paused'); log[#log + 1] = 'b' .. n end)
            addMessageHandler('tick', function(n) log[#log + 1] = 'c' .. n end)
            local co = coroutine.create(function() postMessage('tick', 1) return 'done' end)
            local _, first = coroutine.resume(co)
            local between = table.concat(log, ',')
            local _, second = coroutine.resume(co)
            return between, first, second, table.concat(log, ',')
            """)
        #expect(results == ["a1", "paused", "done", "a1,b1,c1"])
        #expect(host.all == [[.integer(1)]])
    }

    @Test func handlersAreRemovedByMethodAndLateOnesWaitForTheNextMessage() throws {
        let (context, _) = try makeContext()
        let log = try context.execute(
            """
            local log = {}
            local a = {}
            function a:on(x) log[#log + 1] = 'a' .. x end
            function a:other(x) log[#log + 1] = 'ao' .. x end
            addMessageHandler('m', a, 'on')
            addMessageHandler('m', a, 'other')
            removeMessageHandler('m', a, 'on')
            removeMessageHandler('none', a)
            addMessageHandler('m', function(x)
              log[#log + 1] = 'f' .. x
              addMessageHandler('m', function() log[#log + 1] = 'late' end)
            end)
            postMessage('m', 1)
            postMessage('m', 2)
            return table.concat(log, ',')
            """)
        #expect(log == ["ao1,f1,ao2,f2,late"])
    }

    @Test func aResourceDeliveredAgainReportsEveryObjectThatRefusedIt() throws {
        let (context, source) = try makeContext(resources: ["h2g2.txt": "forty-two"])
        try context.execute(
            """
            local function guarded(name)
              local seen = false
              return setmetatable({}, { __newindex = function(t, k, v)
                if seen then error(name .. ' refused ' .. v, 0) end
                seen = true
              end })
            end
            getResource('h2g2', 'txt', guarded('one'), 'text')
            getResource('h2g2', 'txt', guarded('two'), 'text')
            good = {}
            getResource('h2g2', 'txt', good, 'text')
            """)
        try source.setResource("h2g2.txt", "forty-three")
        do {
            _ = try context.resourceDidChange(ResourceKey(name: "h2g2", type: "txt"))
            Issue.record("the refusals were not reported")
        } catch let error as LuaError {
            #expect(
                error.message.split(separator: "\n").sorted() == ["one refused forty-three", "two refused forty-three"])
        }
        #expect(try context.execute("return good.text") == ["forty-three"])
    }

    @Test func printShowsValuesAsTostringDoes() throws {
        let lines = Recorder<String>()
        let (context, _) = try makeContext(options: .init(print: { lines.append($0) }))
        try context.execute("print(setmetatable({}, { __tostring = function() return 'T' end }), 2.5, -0.0)")
        #expect(lines.all == ["T\t2.5\t-0.0\n"])
        #expect(throws: LuaError.self) {
            try context.execute("print(setmetatable({}, { __tostring = function() return {} end }))")
        }
    }

    @Test func aScriptRunByDofileMayYieldAndLoadfileTakesAnEnvironment() throws {
        let scripts = try HostScriptsTests()
        defer { try? FileManager.default.removeItem(at: scripts.folder) }
        _ = try scripts.writePackage(
            modules: ["main": "return 1"],
            scripts: ["co.lib.lua": "local v = coroutine.yield('inside')\nreturn v * 2", "x.lib.lua": "return x"])
        let context = try LuaContext(package: try PackageIdentifier("com.example.scripts"), in: [scripts.folder])
        let results = try context.execute(
            """
            local co = coroutine.wrap(function() return 'got', dofile('./co.lib.lua') end)
            local first = co()
            local a, b = co(21)
            return first, a, b, loadfile('x.lib.lua', 't', { x = 5 })(), select(2, loadfile('/no/such/file.lua'))
            """)
        #expect(results.prefix(4) == ["inside", "got", 42, 5])
        #expect(results.last?.stringValue?.hasPrefix("cannot open /no/such/file.lua") == true, "\(results)")
    }
}
