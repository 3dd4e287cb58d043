import FlowLua
import Testing

@Suite struct LuaStateTests {
    @Test func compilesWithoutRunning() throws {
        let lua = try LuaState()
        try lua.check("error('must not run')", chunkName: "main.lua")
    }

    @Test func syntaxErrorAtItsLine() throws {
        let lua = try LuaState()
        let source = "local a = 1\nlocal b = 2\nlocal c = = 3\n"
        do {
            try lua.check(source, chunkName: "Foo/Bar.lua")
            Issue.record("a syntax error compiled")
        } catch let error as LuaError {
            #expect(error.kind == .syntax)
            #expect(error.chunk == "Foo/Bar.lua")
            #expect(error.line == 3)
            #expect(error.message.hasPrefix("Foo/Bar.lua:3:"))
            #expect(error.message.contains("unexpected symbol near '='"))
        }
    }

    @Test func runReturnsValues() throws {
        let lua = try LuaState()
        let results = try lua.run("return 1, 2.5, 'x', true, nil, {1, 2}, {a = 1}", chunkName: "r.lua")
        #expect(
            results == [
                .integer(1), .number(2.5), .string("x"), .bool(true), .nil,
                .array([.integer(1), .integer(2)]), .table(["a": .integer(1)]),
            ])
    }

    @Test func runtimeErrorCarriesTraceback() throws {
        let lua = try LuaState()
        let source = """
            local function inner(t)
              return t.field.missing
            end
            local function outer() local v = inner({}); return v end
            outer()
            """
        do {
            try lua.run(source, chunkName: "main.lua")
            Issue.record("a runtime error did not throw")
        } catch let error as LuaError {
            #expect(error.kind == .runtime)
            #expect(error.line == 2)
            #expect(error.message.hasPrefix("main.lua:2: attempt to index a nil value"))
            let traceback = try #require(error.traceback)
            #expect(traceback.hasPrefix("stack traceback:"))
            #expect(traceback.contains("main.lua:2: in upvalue 'inner'"))
            #expect(traceback.contains("main.lua:4: in local 'outer'"))
            #expect(traceback.contains("main.lua:5: in main chunk"))
        }
    }

    @Test func binaryChunksAreRefused() throws {
        let lua = try LuaState()
        let bytecode = try lua.run("return string.dump(function() return 1 end)", chunkName: "dump.lua")
        guard case .string(let dumped) = bytecode.first else { Issue.record("no bytecode"); return }
        #expect(throws: LuaError.self) { try lua.check(dumped, chunkName: "evil.lua") }
    }

    @Test func nonStringErrorObjects() throws {
        let lua = try LuaState()
        do {
            try lua.run("error({code = 1})", chunkName: "t.lua")
            Issue.record("no error")
        } catch let error as LuaError {
            #expect(error.message.contains("error object is a table value"))
        }
    }
}
