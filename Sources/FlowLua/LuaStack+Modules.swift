import CFlowLua
import CLua

/// Modules and globals as `require` and Lua code see them: `package.loaded` and
/// `package.preload` (read from the registry, as `require` reads them) and `_G`.
extension LuaStack {
    /// Makes room for `count` more values; false when the stack cannot grow that far.
    package func reserve(_ count: Int32) -> Bool {
        lua_checkstack(L, count) != 0
    }

    /// Module `name`'s `package.loaded` entry, converted; nil when `require` has not run it.
    package func loadedModule(_ name: String) -> LuaValue? {
        lua_getfield(L, flowlua_registryindex(), "_LOADED")
        defer { flowlua_pop(L, 2) }
        guard lua_getfield(L, -1, name) != LUA_TNIL else { return nil }
        return value(at: -1)
    }

    /// Pops a module chunk's result (on top) into `package.loaded[name]` and returns what the
    /// entry then holds, converted. With `keepingStoredValue`, as `require` does: a non-nil
    /// result is stored, unless the chunk stored a value itself, and nothing at all stores
    /// `true`. Without it, as a reload does: the result, or `true` for nil, replaces the entry,
    /// and the result itself is returned.
    package func popModuleResult(as name: String, keepingStoredValue: Bool) -> LuaValue {
        let loaded = lua_gettop(L)  // where the result is, and then the loaded table
        lua_getfield(L, flowlua_registryindex(), "_LOADED")
        flowlua_insert(L, loaded)
        defer { lua_settop(L, loaded - 1) }
        if keepingStoredValue {
            if lua_type(L, -1) != LUA_TNIL { lua_setfield(L, loaded, name) } else { flowlua_pop(L, 1) }
            if lua_getfield(L, loaded, name) == LUA_TNIL {
                flowlua_pop(L, 1)
                lua_pushboolean(L, 1)
                lua_pushvalue(L, -1)
                lua_setfield(L, loaded, name)
            }
            return value(at: -1)
        }
        let result = value(at: -1)
        if lua_type(L, -1) == LUA_TNIL {
            flowlua_pop(L, 1)
            lua_pushboolean(L, 1)
        }
        lua_setfield(L, loaded, name)
        return result
    }

    /// Clears `package.loaded[name]`: the next `require` runs the module again.
    package func forgetModule(_ name: String) {
        lua_getfield(L, flowlua_registryindex(), "_LOADED")
        lua_pushnil(L)
        lua_setfield(L, -2, name)
        flowlua_pop(L, 1)
    }

    /// `package.preload[name] = opener`, so `require(name)` calls the C module's opener.
    package func setPreload(_ name: String, opener: LuaSwiftFunction) {
        lua_getglobal(L, "package")
        lua_getfield(L, -1, "preload")
        lua_pushcclosure(L, opener, 0)
        lua_setfield(L, -2, name)
        flowlua_pop(L, 2)
    }

    /// `_G[name]`, with metamethods, in protected mode.
    package func global(_ name: String) throws -> LuaValue {
        flowlua_pushcfunction(L, flowlua_gettable_body)
        flowlua_pushglobaltable(L)
        push(message: name)
        let status = flowlua_pcall(L, 2, 1, 0)
        guard status == LUA_OK else { throw LuaError.pop(status: status, from: L) }
        defer { flowlua_pop(L, 1) }
        return value(at: -1)
    }

    /// `_G[name] = value`, with metamethods (a strict mode may refuse), in protected mode.
    package func setGlobal(_ name: String, _ newValue: LuaValue) throws {
        flowlua_pushcfunction(L, flowlua_settable_body)
        flowlua_pushglobaltable(L)
        push(message: name)
        push(newValue)
        let status = flowlua_pcall(L, 3, 0, 0)
        guard status == LUA_OK else { throw LuaError.pop(status: status, from: L) }
    }

    /// `_G[name] = {[first] = values[0], [first + 1] = values[1], …}`: a sequence that starts
    /// elsewhere than 1, as the lua interpreter's `arg` starts at -1.
    package func setGlobal(_ name: String, sequence values: [LuaValue], from first: Int) throws {
        flowlua_pushcfunction(L, flowlua_settable_body)
        flowlua_pushglobaltable(L)
        push(message: name)
        let positive = values.count - max(0, 1 - first)
        lua_createtable(L, Int32(clamping: max(0, positive)), Int32(clamping: values.count - max(0, positive)))
        for (offset, value) in values.enumerated() {
            push(value)
            lua_rawseti(L, -2, lua_Integer(first + offset))
        }
        let status = flowlua_pcall(L, 3, 0, 0)
        guard status == LUA_OK else { throw LuaError.pop(status: status, from: L) }
    }
}
