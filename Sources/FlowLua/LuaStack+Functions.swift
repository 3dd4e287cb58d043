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
