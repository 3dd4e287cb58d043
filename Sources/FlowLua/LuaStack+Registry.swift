import CLua

/// Registry references and the tables a host keeps in the registry: typed operations, so the
/// stack arithmetic stays in FlowLua. All table access is raw (no metamethod runs).
extension LuaStack {
    /// What a registry reference holds before it is set, or after it is released.
    package static let noReference: Int32 = LUA_NOREF

    /// How many values the stack holds.
    package var top: Int32 { lua_gettop(L) }

    /// Pops `count` values.
    package func pop(_ count: Int32 = 1) {
        flowlua_pop(L, count)
    }

    /// Pushes the value registry reference `reference` holds (nil for `noReference`).
    package func push(referenced reference: Int32) {
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(reference))
    }

    /// Pops the value on top into the registry and returns its reference.
    package func popReference() -> Int32 {
        luaL_ref(L, flowlua_registryindex())
    }

    /// Releases `reference`, so its value can be collected; `noReference` is ignored.
    package func release(_ reference: Int32) {
        luaL_unref(L, flowlua_registryindex(), reference)
    }

    /// In the referenced table, `table[value on top] = value`; the value on top stays.
    package func rawSetTopAsKey(inReferencedTable table: Int32, to value: String) {
        push(referenced: table)
        lua_pushvalue(L, -2)
        lua_pushstring(L, value)
        lua_rawset(L, -3)
        flowlua_pop(L, 1)
    }

    /// In the referenced table, takes `table[key]` out into a new registry reference (returned)
    /// and sets the field to nil.
    package func rawTake(_ key: String, fromReferencedTable table: Int32) -> Int32 {
        push(referenced: table)
        lua_pushstring(L, key)
        lua_rawget(L, -2)
        let taken = popReference()
        lua_pushstring(L, key)
        lua_pushnil(L)
        lua_rawset(L, -3)
        flowlua_pop(L, 1)
        return taken
    }

    /// In the referenced table, `table[key] =` the value `reference` holds.
    package func rawSet(_ key: String, inReferencedTable table: Int32, toReferenced reference: Int32) {
        push(referenced: table)
        lua_pushstring(L, key)
        push(referenced: reference)
        lua_rawset(L, -3)
        flowlua_pop(L, 1)
    }

    /// The referenced table read as a table of sets: each string key whose value is a table,
    /// with that table's string keys. Other entries are skipped.
    package func stringKeySets(inReferencedTable table: Int32) -> [(key: [UInt8], members: [[UInt8]])] {
        guard lua_checkstack(L, 4) != 0 else { return [] }
        var sets: [(key: [UInt8], members: [[UInt8]])] = []
        push(referenced: table)
        lua_pushnil(L)
        while lua_next(L, -2) != 0 {
            if lua_type(L, -1) == LUA_TTABLE, let key = bytes(at: -2) {
                var members: [[UInt8]] = []
                lua_pushnil(L)
                while lua_next(L, -2) != 0 {
                    if let member = bytes(at: -2) { members.append(member) }
                    flowlua_pop(L, 1)
                }
                sets.append((key, members))
            }
            flowlua_pop(L, 1)
        }
        flowlua_pop(L, 1)
        return sets
    }

    /// Whether `require` has run module `name`: its `package.loaded` entry (kept in the
    /// registry, as `require` reads it) is set.
    package func isModuleLoaded(_ name: String) -> Bool {
        lua_getfield(L, flowlua_registryindex(), "_LOADED")
        defer { flowlua_pop(L, 2) }
        return lua_getfield(L, -1, name) != LUA_TNIL
    }
}
