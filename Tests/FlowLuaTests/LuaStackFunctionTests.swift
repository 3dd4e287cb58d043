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
}
