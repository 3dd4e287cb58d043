import FlowLua
import FlowTestSupport
import FlowLoader
import FlowPackage
import Foundation
import Testing
@testable import FlowRuntime

/// Collects what a context hands back on other threads.
final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
}

func makeContext(
    modules: [String: String] = [:], resources: [String: String] = [:],
    options: LuaContext.Options = .init()
) throws -> (LuaContext, MemorySource) {
    let source = try MemorySource(
        kind: .embeddedPackage, location: "/app/App.luapkg", modules: modules, resources: resources)
    let id = try PackageIdentifier("com.example.app")
    let loader = try Loader(identifier: id, sources: [source])
    return (try LuaContext(name: "test", packageIdentifier: id, loader: loader, options: options), source)
}

@Suite struct LuaContextTests {
    @Test func requireGoesThroughTheLoaderWithModuleChunkNames() throws {
        let (context, _) = try makeContext(modules: [
            "main": "local t = require 'pl.tablex'\nreturn t.size({1, 2, 3})",
            "pl.tablex":
                "local M = {}\nfunction M.size(t) return #t end\nfunction M.boom() local x = nil\n  return x.y end\nreturn M",
        ])
        #expect(try context.loadModule(ModuleName("main")) == .integer(3))
        #expect(
            context.loadedItems.map(\.description) == [
                "module main <- package /app/App.luapkg", "module pl.tablex <- package /app/App.luapkg",
            ])
        do {
            try context.execute("require('pl.tablex').boom()")
            Issue.record("no error")
        } catch let error as LuaError {
            #expect(error.message == "pl/tablex.lua:4: attempt to index a nil value (local 'x')")
            #expect(error.traceback?.contains("pl/tablex.lua:4: in function 'pl.tablex.boom'") == true)
        }
    }

    @Test func fileSystemSearchersAreGoneAndMissingModulesListThePlacesSearched() throws {
        let (context, _) = try makeContext()
        // preload and the loader's, which also follows package.path into the sources' own module
        // files only; with package.path empty that adds nothing to the message.
        #expect(try context.execute("return #package.searchers, package.path, package.cpath") == [.integer(2), "", ""])
        do {
            try context.execute("require 'dkjson'", chunkName: "main.lua")
            Issue.record("a module outside the package loaded")
        } catch let error as LuaError {
            #expect(
                error.message == """
                    main.lua:1: module 'dkjson' not found:
                    \tno field package.preload['dkjson']
                    \tno module 'dkjson' in package /app/App.luapkg
                    """)
        }
    }

    @Test func binaryModulesAndSyntaxErrorsAreRefused() throws {
        let bytecode = try LuaState().run("return string.dump(function() return 1 end)", chunkName: "d.lua")
        let (context, source) = try makeContext(modules: ["bad": "return = 1"])
        guard case .string(let dumped) = bytecode.first else { Issue.record("no bytecode"); return }
        try source.setModule("compiled", dumped)
        #expect(throws: LuaError.self) { try context.loadModule(ModuleName("compiled")) }
        do {
            try context.loadModule(ModuleName("bad"))
            Issue.record("a syntax error loaded")
        } catch let error as LuaError {
            #expect(error.message.contains("error loading module 'bad':"))
            #expect(error.message.contains("bad.lua:1: unexpected symbol near '='"))
        }
    }

    @Test func completionHandlerIsCalledAgainOnReload() throws {
        let (context, source) = try makeContext(modules: [
            "counter": "return { value = 1 }",
            "main": """
            reloads = {}
            addMessageHandler('system.did_load_module', function(name) reloads[#reloads + 1] = name end)
            """,
        ])
        try context.loadModule(ModuleName("main"))
        let results = Recorder<LuaValue>()
        let hostMessages = Recorder<[LuaValue]>()
        context.addMessageHandler(LuaContext.didLoadModuleMessage) { hostMessages.append($0) }
        let first = DispatchSemaphore(value: 0)
        context.loadModule(try ModuleName("counter")) { result in
            results.append((try? result.get()) ?? .nil)
            first.signal()
        }
        first.wait()
        try source.setModule("counter", "return { value = 2 }")
        #expect(try context.reloadModule(ModuleName("counter")))
        #expect(results.all == [["value": 1], ["value": 2]])
        #expect(try context.global("reloads") == ["counter"])
        #expect(hostMessages.all == [["counter"]])
        #expect(try context.execute("return require('counter').value") == [2])

        // A module never loaded is not run by a reload; an unloaded one calls no handler again.
        #expect(try context.reloadModule(ModuleName("main.other")) == false)
        try context.unloadModule(ModuleName("counter"))
        #expect(try context.reloadModule(ModuleName("counter")) == false)
        try context.loadModule(ModuleName("counter"))
        try context.reloadModule(ModuleName("counter"))
        #expect(results.all.count == 2)
    }

    @Test func aFailedReloadKeepsThePreviousResult() throws {
        let (context, source) = try makeContext(modules: ["m": "return 1"])
        #expect(try context.loadModule(ModuleName("m")) == 1)
        try source.setModule("m", "error('broken')")
        #expect(throws: LuaError.self) { try context.reloadModule(ModuleName("m")) }
        #expect(try context.execute("return require 'm'") == [1])
    }

    @Test func resourcesAreReadAndDeliveredAgain() throws {
        let (context, source) = try makeContext(resources: ["h2g2.txt": "forty-two", "img/logo.png": "PNG"])
        try context.execute(
            """
            controller = {}
            setmetatable(controller, { __newindex = function(t, k, v) rawset(t, 'words', v .. '!') end })
            text = getResource('h2g2', 'txt', controller, 'collectionText')
            logo = getResource('img/logo', 'png')
            """)
        #expect(try context.global("text") == "forty-two")
        #expect(try context.global("logo") == "PNG")
        #expect(try context.execute("return controller.words") == ["forty-two!"])
        try source.setResource("h2g2.txt", "forty-three")
        #expect(try context.resourceDidChange(ResourceKey(name: "h2g2", type: "txt")) == 1)
        #expect(try context.execute("return controller.words") == ["forty-three!"])
        #expect(try context.resourceDidChange(ResourceKey(name: "img/logo", type: "png")) == 0)
        do {
            try context.execute("getResource('nope', 'txt')", chunkName: "main.lua")
            Issue.record("a missing resource was served")
        } catch let error as LuaError {
            #expect(
                error.message
                    == "main.lua:1: resource 'nope.txt' not found:\n\tno resource 'nope.txt' in package /app/App.luapkg"
            )
        }
    }

    @Test func messagesReachLuaHandlersAndMethods() throws {
        let (context, _) = try makeContext()
        try context.execute(
            """
            log = {}
            local object = { name = 'obj' }
            function object:refresh(a, b) log[#log + 1] = self.name .. ':' .. a .. b end
            addMessageHandler('changed', object, 'refresh')
            local function f(a, b) log[#log + 1] = 'f:' .. a .. b end
            addMessageHandler('changed', f)
            postMessage('changed', 'x', 'y')
            removeMessageHandler('changed', f)
            """)
        try context.postMessage("changed", ["1", "2"])
        #expect(try context.global("log") == ["obj:xy", "f:xy", "obj:12"])
    }

    @Test func printGoesToTheHost() throws {
        let lines = Recorder<String>()
        let (context, _) = try makeContext(options: .init(print: { lines.append($0) }))
        try context.execute("print('a', 1, nil, true) print()")
        #expect(lines.all == ["a\t1\tnil\ttrue\n", "\n"])
    }

    @Test func outputObserversSeePrintAndTheStandardStreams() throws {
        let seen = Recorder<String>()
        let (context, _) = try makeContext(
            options: LuaContext.Options().observingOutput { isError, text in seen.append((isError ? "E:" : "O:") + text)
            })
        try context.execute(
            """
            print('a', 1) io.write('b', 2, '\\n') io.stdout:write('c') io.stderr:write('d\\n')
            local f = io.tmpfile() f:write('not seen') f:close()
            """)
        #expect(seen.all == ["O:a\t1\n", "O:b2\n", "O:c", "E:d\n"])
    }

    /// Observed writes keep stock Lua's results: one value (the file) from `write`, floats as
    /// `%.14g` in what is observed, and nothing observed for a write that failed.
    @Test func observedWritesReturnAndShowWhatStockWritesDo() throws {
        let seen = Recorder<String>()
        let (context, _) = try makeContext(
            options: LuaContext.Options().observingOutput { _, text in seen.append(text) })
        let count = try context.execute(
            """
            local n = select('#', io.write(1.0, ' ', 0.1 + 0.2, '\\n'))
            assert(io.write('') == io.stdout)
            return n
            """)
        #expect(count == [.integer(1)])
        #expect(seen.all == ["1 0.3\n", ""])
    }

    @Test func outputObserversAlsoSeeAHostPrintAndTheSandboxedPrint() throws {
        let seen = Recorder<String>(), printed = Recorder<String>()
        let options = LuaContext.Options(sandbox: .default, print: { printed.append($0) }).observingOutput {
            seen.append("\($0):\($1)")
        }
        let (context, _) = try makeContext(options: options)
        try context.execute("print('x')")
        #expect(printed.all == ["x\n"])
        #expect(seen.all == ["false:x\n"])
    }

    @Test func terminatedContextsRefuseWork() throws {
        let (context, _) = try makeContext(modules: ["m": "return 1"])
        let function = try #require(try context.execute("return function() return 1 end").first?.functionValue)
        context.terminate()
        #expect(throws: LuaContextError.terminated) { try context.execute("return 1") }
        #expect(throws: LuaContextError.terminated) { try function.call() }
        let failed = Recorder<String>()
        context.loadModule(try ModuleName("m")) { failed.append("\($0)") }
        #expect(failed.all.count == 1)
    }

    @Test func safeFromManyThreads() throws {
        let (context, _) = try makeContext()
        try context.execute("count = 0")
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            _ = try? context.execute("count = count + 1")
        }
        #expect(try context.global("count") == 200)
    }
}
