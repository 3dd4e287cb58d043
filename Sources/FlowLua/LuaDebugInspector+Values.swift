import CLua

/// How the inspector names, pushes, keeps and describes values.
extension LuaDebugInspector {
    // MARK: Helpers

    struct Slot {
        var value: LuaDebugValue
        var index: Int32
    }

    /// The named locals at `level`, each only once (the innermost of a name wins, as Lua's
    /// scoping does); with `push`, their values stay pushed on `runner`, in order.
    func namedSlots(
        of thread: LuaThread, level: Int, runner: LuaThread, first: Int32, step: Int32
    ) -> [Slot] {
        var ar = lua_Debug()
        guard lua_getstack(thread.L, Int32(level), &ar) != 0 else { return [] }
        var slots: [Slot] = []
        var index = first
        while lua_checkstack(runner.L, 4) != 0, let name = lua_getlocal(thread.L, &ar, index) {
            let text = String(cString: name)
            lua_xmove(thread.L, runner.L, 1)
            if text.hasPrefix("(") {
                flowlua_pop(runner.L, 1)
            } else {
                slots.removeAll { $0.value.name == text }
                slots.append(Slot(value: describeTop(runner, name: text), index: index))
            }
            index += step
        }
        return slots
    }

    func pushFunction(of thread: LuaThread, level: Int, onto runner: LuaThread) -> Bool {
        var ar = lua_Debug()
        guard lua_getstack(thread.L, Int32(level), &ar) != 0 else { return false }
        lua_getinfo(thread.L, "f", &ar)
        lua_xmove(thread.L, runner.L, 1)
        return true
    }

    func pushHandle(_ handle: Int, onto runner: LuaThread) -> Bool {
        guard handles != LUA_NOREF, handle > 0, handle <= handleCount else { return false }
        lua_rawgeti(runner.L, flowlua_registryindex(), lua_Integer(handles))
        lua_rawgeti(runner.L, -1, lua_Integer(handle))
        flowlua_remove(runner.L, -2)
        return true
    }

    func newHandle(forTopOf runner: LuaThread) -> Int {
        let L = runner.L
        if handles == LUA_NOREF {
            lua_createtable(L, 16, 0)
            handles = luaL_ref(L, flowlua_registryindex())
        }
        handleCount += 1
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(handles))
        lua_pushvalue(L, -2)
        lua_rawseti(L, -2, lua_Integer(handleCount))
        flowlua_pop(L, 1)
        return handleCount
    }

    /// Describes the value on top of `runner`'s stack and pops it (unless `keep`).
    func describeTop(_ runner: LuaThread, name: String, keep: Bool = false) -> LuaDebugValue {
        let L = runner.L
        defer { if !keep { flowlua_pop(L, 1) } }
        let type = lua_type(L, -1)
        let typeName = String(cString: lua_typename(L, type))
        switch type {
        case LUA_TNIL: return LuaDebugValue(name: name, value: "nil", type: typeName, handle: 0)
        case LUA_TBOOLEAN:
            return LuaDebugValue(
                name: name, value: lua_toboolean(L, -1) != 0 ? "true" : "false", type: typeName, handle: 0)
        case LUA_TNUMBER:
            lua_pushvalue(L, -1)
            var length = 0
            let text = String(cString: flowlua_tostring(L, -1, &length)!)
            flowlua_pop(L, 1)
            return LuaDebugValue(name: name, value: text, type: typeName, handle: 0)
        case LUA_TSTRING:
            let bytes = LuaStack(L, bridge: nil).bytes(at: -1) ?? []
            if bytes.count <= stringLimit {
                return LuaDebugValue(name: name, value: quoted(bytes), type: typeName, handle: 0)
            }
            let cut = quoted(Array(bytes.prefix(stringLimit))).dropLast() + "…\" (\(bytes.count) bytes)"
            return LuaDebugValue(name: name, value: String(cut), type: typeName, handle: newHandle(forTopOf: runner))
        case LUA_TTABLE:
            let length = lua_rawlen(L, -1)
            var text = "table " + address(L)
            if length > 0 { text += " [\(length)]" }
            return LuaDebugValue(name: name, value: text, type: typeName, handle: newHandle(forTopOf: runner))
        case LUA_TFUNCTION:
            var ar = lua_Debug()
            lua_pushvalue(L, -1)
            lua_getinfo(L, ">S", &ar)
            let source = ar.source.map { String(cString: $0) } ?? "?"
            let place = source.hasPrefix("@") ? " \(source.dropFirst()):\(ar.linedefined)" : " (C)"
            return LuaDebugValue(name: name, value: "function" + place, type: typeName, handle: 0)
        default:
            let hasMetatable = lua_getmetatable(L, -1) != 0
            if hasMetatable { flowlua_pop(L, 1) }
            return LuaDebugValue(
                name: name, value: typeName + " " + address(L), type: typeName,
                handle: hasMetatable ? newHandle(forTopOf: runner) : 0)
        }
    }

    func fields(ofTableAt index: Int32, runner: LuaThread) -> [LuaDebugValue] {
        let L = runner.L
        let table = lua_absindex(L, index)
        guard lua_checkstack(L, 6) != 0 else { return [] }
        var numbered: [(Int64, LuaDebugValue)] = []
        var named: [LuaDebugValue] = []
        lua_pushnil(L)
        var count = 0
        while lua_next(L, table) != 0, count < 1000 {
            count += 1
            if lua_type(L, -2) == LUA_TNUMBER, lua_isinteger(L, -2) != 0 {
                let key = flowlua_tointeger(L, -2)
                numbered.append((key, describeTop(runner, name: "[\(key)]")))
            } else if lua_type(L, -2) == LUA_TSTRING, let key = LuaStack(L, bridge: nil).bytes(at: -2) {
                let text = String(decoding: key, as: UTF8.self)
                named.append(describeTop(runner, name: Self.isIdentifier(text) ? text : "[\(quoted(key))]"))
            } else {
                lua_pushvalue(L, -2)
                let key = describeTop(runner, name: "")
                named.append(describeTop(runner, name: "[\(key.value)]"))
            }
        }
        if count >= 1000 { flowlua_pop(L, 2) }
        var values = numbered.sorted { $0.0 < $1.0 }.map(\.1) + named.sorted { $0.name < $1.name }
        if lua_getmetatable(L, table) != 0 { values.append(describeTop(runner, name: "(metatable)")) }
        return values
    }

    func address(_ L: OpaquePointer) -> String {
        guard let pointer = lua_topointer(L, -1) else { return "" }
        return "0x" + String(UInt(bitPattern: pointer), radix: 16)
    }

    func quoted(_ bytes: [UInt8]) -> String {
        var text = "\""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || (first | 0x20 >= 97 && first | 0x20 <= 122)
        else { return false }
        return text.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || ($0 >= 48 && $0 <= 57)
        }
    }
}
