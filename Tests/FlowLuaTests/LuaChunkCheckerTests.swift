import FlowLua
import Testing

@Suite struct LuaChunkCheckerTests {
    func check(_ checker: LuaChunkChecker, _ source: String, chunkName: String = "main.lua") throws {
        var source = source
        try source.withUTF8 { try checker.check(UnsafeRawBufferPointer($0), chunkName: chunkName) }
    }

    /// What `LuaState.check` throws for `source`, or nil when it compiles.
    func stateError(_ source: String, chunkName: String = "main.lua") throws -> LuaError? {
        do {
            try LuaState(openLibraries: false).check(source, chunkName: chunkName)
            return nil
        } catch let error as LuaError {
            return error
        }
    }

    func checkerError(_ checker: LuaChunkChecker, _ source: String, chunkName: String = "main.lua") -> LuaError? {
        do {
            try check(checker, source, chunkName: chunkName)
            return nil
        } catch {
            return error as? LuaError
        }
    }

    @Test func compilesWithoutRunning() throws {
        try check(LuaChunkChecker(), "error('must not run')")
    }

    @Test func syntaxErrorsAreLuaStatesOwn() throws {
        let checker = LuaChunkChecker()
        let sources = [
            "local a = 1\nlocal b = 2\nlocal c = = 3\n",
            "x = 'unfinished\n",
            "goto nowhere",
            "local t = {" + String(repeating: "{", count: 300) + "}",
            "for i = 1 do end",
        ]
        for source in sources {
            let expected = try #require(try stateError(source, chunkName: "Foo/Bar.lua"))
            #expect(checkerError(checker, source, chunkName: "Foo/Bar.lua") == expected)
        }
    }

    @Test func binaryChunksAreRefused() throws {
        let lua = try LuaState()
        let bytecode = try lua.run("return string.dump(function() return 1 end)", chunkName: "dump.lua")
        guard case .string(let dumped) = bytecode.first else { Issue.record("no bytecode"); return }
        #expect(throws: LuaError.self) { try check(LuaChunkChecker(), dumped, chunkName: "evil.lua") }
    }

    /// Chunks far past the arena's first block, before and after small ones and errors: each
    /// check starts from a clean state whatever the previous one left.
    @Test func manyChunksOfEverySize() throws {
        let checker = LuaChunkChecker()
        var large = ""
        for index in 0..<40_000 {
            large += "t[\(index)] = { name = 'item\(index)', size = \(index) * 2.5 }\n"
        }
        large = "local function f(t)\n" + large + "end\n"
        for round in 0..<3 {
            try check(checker, "return \(round)")
            try check(checker, large, chunkName: "large.lua")
            #expect(checkerError(checker, "local = \(round)")?.line == 1)
            try check(checker, "local s = 'x'\nreturn s .. \(round)")
            #expect(
                checkerError(checker, large + "end", chunkName: "large.lua")?.message
                    == (try stateError(large + "end", chunkName: "large.lua"))?.message)
        }
    }
}
