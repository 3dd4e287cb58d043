import FlowTestSupport
import FlowLoader
import FlowLua
import FlowPackage
import Foundation
import Testing
@testable import FlowRuntime

/// A changed module re-runs the modules that required it, in dependency order (issue 12).
@Suite struct ReloadDependentsTests {
    /// main requires words and view; view requires words too (already loaded by then); clock
    /// is required by no one. Each module logs when it runs.
    static let modules = [
        "main": """
        local words = require 'words'
        local view = require 'view'
        log('main')
        return words.text .. ' / ' .. view.render()
        """,
        "view": """
        local words = require 'words'
        log('view')
        return { render = function() return '[' .. words.text .. ']' end }
        """,
        "words": "log('words')\nreturn { text = 'one' }",
        "clock": "log('clock')\nreturn 12",
    ]

    func context() throws -> (LuaContext, MemorySource, Recorder<String>) {
        let runs = Recorder<String>()
        let (context, source) = try makeContext(modules: Self.modules)
        try context.setGlobal(
            "log",
            .function(
                LuaFunction { arguments in
                    runs.append(arguments.first?.stringValue ?? "?")
                    return []
                }))
        return (context, source, runs)
    }

    @Test func editingARequiredModuleRerunsWhatRequiredItInOrder() throws {
        let (context, source, runs) = try context()
        let results = Recorder<LuaValue>()
        let loaded = DispatchSemaphore(value: 0)
        context.loadModule(try ModuleName("main")) { result in
            results.append((try? result.get()) ?? .nil)
            loaded.signal()
        }
        loaded.wait()
        try context.loadModule(ModuleName("clock"))
        let messages = Recorder<String>()
        context.addMessageHandler(LuaContext.didLoadModuleMessage) { messages.append($0.first?.stringValue ?? "?") }
        #expect(runs.all == ["words", "view", "main", "clock"])

        try source.setModule("words", "log('words')\nreturn { text = 'two' }")
        let reloaded = try context.reloadModules([ModuleName("words")])
        #expect(reloaded.map(\.rawValue) == ["words", "view", "main"])
        #expect(runs.all == ["words", "view", "main", "clock", "words", "view", "main"])
        #expect(messages.all == ["words", "view", "main"])
        #expect(results.all == ["one / [one]", "two / [two]"])
        #expect(try context.execute("return require('view').render()") == ["[two]"])
    }

    @Test func aChainReloadsBottomUpAndALeafChangeTouchesNothingElse() throws {
        let (context, source, runs) = try context()
        try context.loadModule(ModuleName("main"))
        try source.setModule("main", "log('main')\nreturn 'alone'")
        #expect(try context.reloadModules([ModuleName("main")]).map(\.rawValue) == ["main"])
        // main no longer requires words or view: its notes were taken afresh.
        #expect(try context.reloadModules([ModuleName("words")]).map(\.rawValue) == ["words", "view"])
        #expect(runs.all.suffix(3) == ["main", "words", "view"])
        // Several changes at once run each module once.
        #expect(
            try context.reloadModules([ModuleName("view"), ModuleName("words")]).map(\.rawValue) == ["words", "view"])
    }

    @Test func reloadModuleRerunsDependentsAndNeverLoadedModulesStayUnloaded() throws {
        let (context, source, runs) = try context()
        try context.loadModule(ModuleName("view"))
        try source.setModule("words", "log('words')\nreturn { text = 'three' }")
        #expect(try context.reloadModule(ModuleName("words")))
        #expect(runs.all == ["words", "view", "words", "view"])
        #expect(try context.reloadModule(ModuleName("clock")) == false)
        #expect(runs.all.contains("clock") == false)
    }

    @Test func aFailingModuleKeepsItsResultAndHoldsBackWhatRequiredIt() throws {
        let (context, source, runs) = try context()
        try context.loadModule(ModuleName("main"))
        try source.setModule("view", "log('view')\nerror('view is broken')")
        try source.setModule("words", "log('words')\nreturn { text = 'four' }")
        do {
            try context.reloadModules([ModuleName("words"), ModuleName("view")])
            Issue.record("a broken module reloaded without an error")
        } catch let error as LuaError {
            #expect(error.message == "view.lua:2: view is broken")
        }
        // words ran again; view failed and kept its result; main, which required view, was held.
        #expect(runs.all == ["words", "view", "main", "words", "view"])
        #expect(try context.execute("return require('view').render()") == ["[one]"])
        // Fixed, view reloads, and main with it.
        try source.setModule(
            "view", "local words = require 'words'\nlog('view')\nreturn { render = function() return words.text end }")
        #expect(try context.reloadModules([ModuleName("view")]).map(\.rawValue) == ["view", "main"])
        #expect(try context.execute("return require('main')") == ["four / four"])
    }

    @Test func requireKeepsStockLuaMessagesAndTracebacks() throws {
        let (context, _) = try makeContext(modules: [
            "main": "local helper = require 'helper'\nreturn helper",
            "helper": "local x = nil\nreturn x.field",
            "extra": "return 1",
        ])
        do {
            try context.loadModule(ModuleName("main"))
            Issue.record("no error")
        } catch let error as LuaError {
            #expect(error.message == "helper.lua:2: attempt to index a nil value (local 'x')")
            #expect(error.traceback?.contains("main.lua:1: in main chunk") == true)
            #expect(error.traceback?.contains("[C]: in function 'require'") == true)
        }
        do {
            try context.execute("return require(nil)", chunkName: "main.lua")
        } catch let error as LuaError {
            #expect(error.message == "main.lua:1: bad argument #1 to 'require' (string expected, got nil)")
        }
        // require returns the loader data as its second result the first time, as stock Lua's does.
        #expect(
            try context.execute("local m, data = require 'extra'; return m, data, select('#', require 'extra')")
                == [1, "extra.lua", 1])
    }

    @Test func modulesRequiredUnderTheSandboxAreTrackedToo() throws {
        let (context, source) = try makeContext(
            modules: ["main": "return require('words').text", "words": "return { text = 'a' }"],
            options: .init(sandbox: .default))
        #expect(try context.loadModule(ModuleName("main")) == "a")
        #expect(try context.execute("return debug") == [.nil])
        try source.setModule("words", "return { text = 'b' }")
        #expect(try context.reloadModules([ModuleName("words")]).map(\.rawValue) == ["words", "main"])
        #expect(try context.execute("return require 'main'") == ["b"])
    }
}

extension ReloadDependentsTests {
    /// A start module loaded with script arguments (as `flowpkg run` loads it) is tracked too.
    @Test func aStartModuleLoadedWithArgumentsRerunsWhenWhatItRequiredChanges() throws {
        let (context, source) = try makeContext(modules: [
            "main": "local words = require 'words'\nreturn words.text .. ' ' .. select('#', ...)",
            "words": "return { text = 'one' }",
        ])
        #expect(try context.loadModule(ModuleName("main"), arguments: ["a", "b"]) == "one 2")
        try source.setModule("words", "return { text = 'two' }")
        #expect(try context.reloadModules([ModuleName("words")]).map(\.rawValue) == ["words", "main"])
        #expect(try context.execute("return require 'main'") == ["two 2"])
    }
}
