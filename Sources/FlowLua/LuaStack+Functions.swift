import CFlowLua
import CLua

/// A Swift function Lua can call. It reads its arguments from the calling thread's stack
/// (`LuaStack`), pushes its results and returns their count, or pushes an error message and
/// returns -1: the error is then raised from C, so Lua's longjmp never crosses Swift frames.
package typealias LuaSwiftFunction = @convention(c) (OpaquePointer?) -> Int32

extension LuaStack {
    /// Whether the value at `index` is true in Lua's sense: neither nil, false nor absent.
    package func isTruthy(at index: Int32) -> Bool {
        lua_toboolean(L, index) != 0
    }

    /// Pushes a Lua function running `body`; the `upvalues` values on top of the stack are
    /// popped into it as its upvalues 2...n+1 (upvalue 1 holds `body` itself).
    package func push(function body: LuaSwiftFunction, upvalues: Int32 = 0) {
        flowlua_pushswiftfunction(L, body, upvalues)
    }
}

extension LuaStack {
    /// Holds the function (or any value) at `index` in the registry and returns its reference.
    package func reference(at index: Int32) -> Int32 {
        lua_pushvalue(L, index)
        return luaL_ref(L, flowlua_registryindex())
    }

    /// Calls the function below `argumentCount` arguments in protected mode without a
    /// traceback, then pops its `resultCount` results into registry references, in order.
    package func callKeepingResults(argumentCount: Int32, resultCount: Int32) throws -> [Int32] {
        let status = flowlua_pcall(L, argumentCount, resultCount, 0)
        guard status == LUA_OK else { throw LuaError.pop(status: status, from: L) }
        var references = [Int32](repeating: LUA_NOREF, count: Int(resultCount))
        for index in stride(from: Int(resultCount) - 1, through: 0, by: -1) {
            references[index] = luaL_ref(L, flowlua_registryindex())
        }
        return references
    }

    /// Pushes a full userdata holding `tag`, with the metatable registered as `metatableName`,
    /// whose `__gc` runs `collector` (set when this call creates the metatable).
    package func push(tag: Int, metatableName: String, collector: LuaSwiftFunction) {
        flowlua_newuserdata(L, MemoryLayout<Int>.size)!.storeBytes(of: tag, as: Int.self)
        if luaL_newmetatable(L, metatableName) != 0 {
            push(function: collector)
            lua_setfield(L, -2, "__gc")
        }
        lua_setmetatable(L, -2)
    }

    /// The tag a userdata pushed by `push(tag:metatableName:collector:)` holds, at `index`
    /// (pass `upvalue(_:)` for a Swift function's upvalue); nil for any other value.
    package func tag(at index: Int32) -> Int? {
        lua_touserdata(L, index)?.load(as: Int.self)
    }

    /// The pseudo-index of a Swift function's upvalue `number` (2 is its first own one).
    package func upvalue(_ number: Int32) -> Int32 {
        flowlua_upvalueindex(number)
    }

    /// Pushes `message` prefixed with where the Lua caller is (`main.lua:3: `), as Lua's own
    /// errors read; what a Swift function pushes before returning -1.
    package func push(errorMessage message: String) {
        luaL_where(L, 1)
        push(message: message)
        lua_concat(L, 2)
    }
}
