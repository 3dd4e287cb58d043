import CFlowLua
import CLua

/// How a host sets a state up: its own searcher and `require`, globals from the registry,
/// and a pointer to itself in the state's extra space. Each operation leaves the stack as it
/// found it.
extension LuaStack {
    /// Stores `host` in the state's extra space, where `host(of:)` finds it from any thread.
    package func setHost(_ host: UnsafeMutableRawPointer) {
        flowlua_getextraspace(L)!.storeBytes(of: host, as: UnsafeMutableRawPointer.self)
    }

    /// What `setHost(_:)` stored, from a Swift function's thread `L`.
    package static func host(of L: OpaquePointer?) -> UnsafeMutableRawPointer {
        flowlua_getextraspace(L)!.load(as: UnsafeMutableRawPointer.self)
    }

    /// Makes `package.searchers` `{ preload searcher, searcher }` and empties `package.path`
    /// and `package.cpath`, so no path reaches the file system. Returns the old `cpath` and
    /// references to stock Lua's C searchers (3 and 4), for the host to release.
    package func replaceSearchers(with searcher: LuaSwiftFunction) -> (
        cPath: String, cSearcher: Int32, cRootSearcher: Int32
    ) {
        replaceSearchers(pushingSearcher: { push(function: searcher) })
    }

    /// `replaceSearchers(with:)` with the host's function `function` as the searcher. Without
    /// `keepingCSearchers` (no C module is declared) the C path and searchers are not kept:
    /// `cPath` is empty and both references are `noReference` (each launch saves their work).
    package func replaceSearchers(withHostFunction function: Int32, keepingCSearchers: Bool = true) -> (
        cPath: String, cSearcher: Int32, cRootSearcher: Int32
    ) {
        replaceSearchers(keepingCSearchers: keepingCSearchers, pushingSearcher: { push(hostFunction: function) })
    }

    private func replaceSearchers(keepingCSearchers: Bool = true, pushingSearcher pushSearcher: () -> Void) -> (
        cPath: String, cSearcher: Int32, cRootSearcher: Int32
    ) {
        lua_getglobal(L, "package")
        var cPath = ""
        var (cSearcher, cRootSearcher) = (Self.noReference, Self.noReference)
        if keepingCSearchers {
            lua_getfield(L, -1, "cpath")
            cPath = bytes(at: -1).map { String(decoding: $0, as: UTF8.self) } ?? ""
            flowlua_pop(L, 1)
            lua_getfield(L, -1, "searchers")
            lua_rawgeti(L, -1, 3)
            cSearcher = popReference()
            lua_rawgeti(L, -1, 4)
            cRootSearcher = popReference()
            flowlua_pop(L, 1)
        }
        lua_createtable(L, 2, 0)
        lua_getfield(L, -2, "searchers")
        lua_rawgeti(L, -1, 1)
        lua_rawseti(L, -3, 1)
        flowlua_pop(L, 1)
        pushSearcher()
        lua_rawseti(L, -2, 2)
        lua_setfield(L, -2, "searchers")
        for field in ["path", "cpath"] {
            lua_pushstring(L, "")
            lua_setfield(L, -2, field)
        }
        flowlua_pop(L, 1)
        return (cPath, cSearcher, cRootSearcher)
    }

    /// Replaces the global `require` with one that notes which module required which and then
    /// runs stock Lua's own `require` in its frame (CFlowLua's `require.c`): returns references
    /// to its tables, chunk -> module name (weak keys) and the notes.
    package func installNotingRequire() -> (chunks: Int32, requires: Int32) {
        lua_getglobal(L, "package")
        lua_createtable(L, 0, 0)
        lua_createtable(L, 0, 1)
        lua_pushstring(L, "k")
        lua_setfield(L, -2, "__mode")
        lua_setmetatable(L, -2)
        let chunks = reference(at: -1)
        lua_createtable(L, 0, 0)
        let requires = reference(at: -1)
        lua_getglobal(L, "require")
        lua_pushcclosure(L, flowlua_require, 4)
        lua_setglobal(L, "require")
        return (chunks, requires)
    }

    /// `package.path` as the program set it (`package` as the global names it, the sandbox's
    /// included), or nil when it is no string or empty. Raw reads: nothing runs that could raise.
    package func packagePath() -> [UInt8]? {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        flowlua_pushglobaltable(L)
        lua_pushstring(L, "package")
        guard lua_rawget(L, -2) == LUA_TTABLE else { return nil }
        lua_pushstring(L, "path")
        guard lua_rawget(L, -2) == LUA_TSTRING, let path = bytes(at: -1), !path.isEmpty else { return nil }
        return path
    }

    /// Holds global `name`'s current value in the registry and returns its reference.
    package func referenceGlobal(_ name: String) -> Int32 {
        lua_getglobal(L, name)
        return popReference()
    }

    /// `_G[name] =` the value `reference` holds (during set-up, before any metatable on `_G`).
    package func setGlobal(_ name: String, referenced reference: Int32) {
        push(referenced: reference)
        lua_setglobal(L, name)
    }
}
