import FlowLua
import Testing

/// The typed operations a host uses to hand Swift functions to Lua, on a real state.
@Suite struct LuaStackFunctionTests {
    /// Compiles `source` and calls it with a Swift function as its one argument (`...`).
    private func run(_ source: String, with body: LuaSwiftFunction) throws -> [LuaValue] {
        let lua = try LuaState()
        var source = source
        try source.withUTF8 { try lua.load(UnsafeRawBufferPointer($0), chunkName: "test.lua") }
        lua.stack.push(function: body)
        return try lua.call(argumentCount: 1)
    }

    @Test func swiftFunctionReadsTruthinessAndReturnsResults() throws {
        let results = try run("local f = ...; return f(true), f(0), f(false), f(nil), f()") { L in
            let stack = LuaStack(L!, bridge: nil)
            stack.push(.bool(stack.isTruthy(at: 1)))
            return 1
        }
        #expect(results == [.bool(true), .bool(true), .bool(false), .bool(false), .bool(false)])
    }

    @Test func swiftFunctionRaisesTheErrorItPushed() throws {
        do {
            _ = try run("local f = ...; f()") { L in
                LuaStack(L!, bridge: nil).push(message: "refused by the host")
                return -1
            }
            Issue.record("the error was not raised")
        } catch let error as LuaError {
            #expect(error.message.contains("refused by the host"))
        }
    }

    @Test func swiftFunctionErrorIsCatchableByPcall() throws {
        let results = try run("local f = ...; return pcall(f)") { L in
            LuaStack(L!, bridge: nil).push(message: "nope")
            return -1
        }
        #expect(results == [.bool(false), .string("nope")])
    }

    @Test func errorMessageNamesWhereTheLuaCallerIs() throws {
        do {
            _ = try run("local f = ...\n\nf()") { L in
                LuaStack(L!, bridge: nil).push(errorMessage: "refused")
                return -1
            }
            Issue.record("the error was not raised")
        } catch let error as LuaError {
            #expect(error.message.hasPrefix("test.lua:3: refused"))
        }
    }

    @Test func setupResultsBecomeReferencesInOrder() throws {
        let lua = try LuaState()
        let stack = lua.stack
        var source = "local a = ...; return a, a + 1, function() return 'f' end"
        try source.withUTF8 { try lua.load(UnsafeRawBufferPointer($0), chunkName: "setup.lua") }
        stack.push(.integer(1))
        let references = try stack.callKeepingResults(argumentCount: 1, resultCount: 3)
        #expect(stack.top == 0)
        stack.push(referenced: references[0])
        stack.push(referenced: references[1])
        #expect(stack.values(from: 1) == [.integer(1), .integer(2)])
        stack.pop(2)
        stack.push(referenced: references[2])
        let again = stack.reference(at: -1)
        stack.pop()
        stack.push(referenced: again)
        #expect(try lua.call(argumentCount: 0) == [.string("f")])
        var failing = "error('setup failed', 0)"
        try failing.withUTF8 { try lua.load(UnsafeRawBufferPointer($0), chunkName: "failing.lua") }
        #expect(throws: LuaError.self) { try stack.callKeepingResults(argumentCount: 0, resultCount: 1) }
        #expect(stack.top == 0)
    }

    /// Upvalue 2 of the function `taggedFunction` pushes: a tagged userdata, read back.
    private static let readTag: LuaSwiftFunction = { L in
        let stack = LuaStack(L!, bridge: nil)
        stack.push(.integer(Int64(stack.tag(at: stack.upvalue(2)) ?? -1)))
        return 1
    }

    @Test func taggedUserdataIsReadBackAndCollected() throws {
        let lua = try LuaState()
        let stack = lua.stack
        stack.push(tag: 41, metatableName: "test.Tagged") { L in
            // The collector records the tag it saw in a global, from C's point of view.
            let stack = LuaStack(L!, bridge: nil)
            try? stack.setGlobal("collected", .integer(Int64(stack.tag(at: 1) ?? -1)))
            return 0
        }
        #expect(stack.tag(at: -1) == 41)
        stack.push(function: Self.readTag, upvalues: 1)
        #expect(try lua.call(argumentCount: 0) == [.integer(41)])
        try lua.run("collectgarbage(); collectgarbage()", chunkName: "gc.lua")
        #expect(try stack.global("collected") == .integer(41))
        stack.push(.string("not userdata"))
        #expect(stack.tag(at: -1) == nil)
        stack.pop()
        #expect(stack.top == 0)
    }
}
