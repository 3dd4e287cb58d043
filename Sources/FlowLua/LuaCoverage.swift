import CFlowLua

/// Line counts of a Lua state for `flowpkg test --coverage`, taken by a C line hook
/// (CFlowLua's coverage.c): `require "flowpkg.coverage"` in a state whose host registered
/// ``opener`` gives `start(watchdog, count)`, `setcount(count)` and `stop()`, which returns
/// `{ [chunkname] = { [line] = hits } }`.
public enum LuaCoverage {
    /// The module's name, as the runner requires it.
    public static let moduleName = "flowpkg.coverage"
    /// The module's opener, for `LuaContext.Options.cModules`.
    public static let opener: @convention(c) (OpaquePointer?) -> Int32 = { state in
        flowlua_open_coverage(state)
    }
}
