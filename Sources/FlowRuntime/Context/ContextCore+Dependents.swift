import CLua
import FlowLoader
import FlowLua
import FlowPackage

/// Which module required which, and the order a reload re-runs them in; on the executor only.
///
/// `flowlua_require` notes, at every `require`, the innermost module whose main chunk is
/// running; the searcher and `reload` register each module's chunk so it can be recognised.
/// A module's notes are taken afresh each time it runs.
extension ContextCore {
    /// Remembers the function on top of the stack as module `name`'s main chunk.
    func registerChunk(of name: ModuleName, on L: OpaquePointer) {
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(chunksReference))
        lua_pushvalue(L, -2)
        lua_pushstring(L, name.rawValue)
        lua_rawset(L, -3)
        flowlua_pop(L, 1)
    }

    /// Takes module `name`'s notes out (it is about to run again and note afresh), returning a
    /// registry reference that `restoreRequires` puts back when the run fails.
    func takeRequires(of name: ModuleName, on L: OpaquePointer) -> Int32 {
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(requiresReference))
        lua_pushstring(L, name.rawValue)
        lua_rawget(L, -2)
        let saved = luaL_ref(L, flowlua_registryindex())
        lua_pushstring(L, name.rawValue)
        lua_pushnil(L)
        lua_rawset(L, -3)
        flowlua_pop(L, 1)
        return saved
    }

    /// Puts back (`restore`) or drops the notes `takeRequires` took out.
    func finishRequires(of name: ModuleName, saved: Int32, restore: Bool, on L: OpaquePointer) {
        if restore {
            lua_rawgeti(L, flowlua_registryindex(), lua_Integer(requiresReference))
            lua_pushstring(L, name.rawValue)
            lua_rawgeti(L, flowlua_registryindex(), lua_Integer(saved))
            lua_rawset(L, -3)
            flowlua_pop(L, 1)
        }
        luaL_unref(L, flowlua_registryindex(), saved)
    }

    /// Every module that ran, with the modules it required while its main chunk ran.
    func requireGraph() throws -> [ModuleName: Set<ModuleName>] {
        let (_, L) = try live()
        let stack = LuaStack(L, bridge: self)
        var graph: [ModuleName: Set<ModuleName>] = [:]
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(requiresReference))
        lua_pushnil(L)
        while lua_next(L, -2) != 0 {
            if lua_type(L, -2) == LUA_TSTRING, lua_type(L, -1) == LUA_TTABLE,
                let requirer = try? ModuleName(String(decoding: stack.bytes(at: -2) ?? [], as: UTF8.self))
            {
                var required = Set<ModuleName>()
                lua_pushnil(L)
                while lua_next(L, -2) != 0 {
                    if lua_type(L, -2) == LUA_TSTRING,
                        let name = try? ModuleName(String(decoding: stack.bytes(at: -2) ?? [], as: UTF8.self))
                    {
                        required.insert(name)
                    }
                    flowlua_pop(L, 1)
                }
                graph[requirer] = required
            }
            flowlua_pop(L, 1)
        }
        flowlua_pop(L, 1)
        return graph
    }

    /// The modules to run again when `changed` change: each changed module that is loaded,
    /// then every loaded module that required one of them directly or through others, each
    /// after the modules it requires (within a cycle, changed modules first, then by name).
    func reloadOrder(for changed: [ModuleName], graph: [ModuleName: Set<ModuleName>]) throws -> [ModuleName] {
        var requirers: [ModuleName: Set<ModuleName>] = [:]
        for (module, required) in graph {
            for name in required where name != module { requirers[name, default: []].insert(module) }
        }
        var affected = Set<ModuleName>()
        var pending = try changed.filter { try isLoaded($0) }
        while let module = pending.popLast() {
            guard affected.insert(module).inserted else { continue }
            for requirer in requirers[module] ?? [] where try isLoaded(requirer) { pending.append(requirer) }
        }
        var order: [ModuleName] = []
        var remaining = affected
        let changedSet = Set(changed)
        while !remaining.isEmpty {
            var ready = remaining.filter { (graph[$0] ?? []).subtracting([$0]).isDisjoint(with: remaining) }.sorted()
            if ready.isEmpty {
                ready = [remaining.filter { changedSet.contains($0) }.min() ?? remaining.min()!]
            }
            order += ready
            remaining.subtract(ready)
        }
        return order
    }

    /// Whether `require` has run the module (its `package.loaded` entry is set).
    func isLoaded(_ name: ModuleName) throws -> Bool {
        let (_, L) = try live()
        lua_getfield(L, flowlua_registryindex(), "_LOADED")
        defer { flowlua_pop(L, 2) }
        return lua_getfield(L, -1, name.rawValue) != LUA_TNIL
    }
}
