import CLua

/// One Lua 5.4 state, owned by this object and closed with it.
///
/// It compiles and runs chunks and turns Lua's status codes into `LuaError`s. It is not
/// thread-safe: use one state per thread (the validator) or one serial executor (a context).
public final class LuaState {
    /// The raw state, for the runtime's own bridging code in this module only.
    let L: OpaquePointer

    /// A fresh state; with `openLibraries`, Lua's standard libraries are loaded into it.
    public init(openLibraries: Bool = true) throws {
        guard let state = luaL_newstate() else {
            throw LuaError(kind: .memory, message: "cannot create a Lua state: out of memory")
        }
        L = state
        if openLibraries { luaL_openlibs(L) }
    }

    deinit {
        lua_close(L)
    }

    /// Compiles `source` without running it: a syntax check with Lua's own compiler.
    ///
    /// `chunkName` is what errors show (`"Foo/Bar.lua"` reads `Foo/Bar.lua:3: ...`).
    /// Binary chunks are refused.
    public func check(_ source: UnsafeRawBufferPointer, chunkName: String) throws {
        try load(source, chunkName: chunkName)
        flowlua_pop(L, 1)
    }

    /// Compiles `source` without running it.
    public func check(_ source: String, chunkName: String) throws {
        var source = source
        try source.withUTF8 { (buffer) in try check(UnsafeRawBufferPointer(buffer), chunkName: chunkName) }
    }

    /// Compiles and runs `source`, returning what the chunk returned, converted to Swift.
    @discardableResult
    public func run(_ source: String, chunkName: String) throws -> [LuaValue] {
        var source = source
        try source.withUTF8 { (buffer) in try load(UnsafeRawBufferPointer(buffer), chunkName: chunkName) }
        return try call(argumentCount: 0)
    }

    /// Pushes the compiled chunk on the stack, or throws its syntax error.
    func load(_ source: UnsafeRawBufferPointer, chunkName: String) throws {
        let status = luaL_loadbufferx(
            L, source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count, "@" + chunkName, "t")
        guard status == LUA_OK else { throw popError(status: status) }
    }

    /// Calls the function below `argumentCount` arguments on the stack, with a traceback on error.
    func call(argumentCount: Int32) throws -> [LuaValue] {
        let base = lua_gettop(L) - argumentCount - 1
        flowlua_pushcfunction(L, flowlua_traceback_handler)
        flowlua_insert(L, base + 1)
        let status = flowlua_pcall(L, argumentCount, LUA_MULTRET, base + 1)
        flowlua_remove(L, base + 1)
        guard status == LUA_OK else { throw popError(status: status) }
        let top = lua_gettop(L)
        var results: [LuaValue] = []
        if top > base {
            for index in (base + 1)...top { results.append(value(at: index)) }
        }
        lua_settop(L, base)
        return results
    }

    /// Pops the error value at the top and describes it; its text is copied out first.
    func popError(status: Int32) -> LuaError {
        var length = 0
        let text = flowlua_tostring(L, -1, &length).map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self)
        } ?? "(error object is not a string)"
        flowlua_pop(L, 1)
        let kind: LuaError.Kind
        switch status {
        case LUA_ERRSYNTAX: kind = .syntax
        case LUA_ERRRUN: kind = .runtime
        case LUA_ERRMEM: kind = .memory
        default: kind = .other
        }
        var message = text
        var traceback: String?
        let marker = Array("\nstack traceback:".utf8)
        let bytes = Array(text.utf8)
        if bytes.count >= marker.count,
           let start = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }) {
            message = String(decoding: bytes[..<start], as: UTF8.self)
            traceback = String(decoding: bytes[(start + 1)...], as: UTF8.self)
        }
        let location = LuaError.locate(message)
        return LuaError(kind: kind, message: message, chunk: location?.chunk, line: location?.line, traceback: traceback)
    }

    /// The Lua value at `index`, converted; tables become arrays or dictionaries.
    func value(at index: Int32, depth: Int = 0) -> LuaValue {
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE: return .nil
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .integer(flowlua_tointeger(L, index)) }
            return .number(flowlua_tonumber(L, index))
        case LUA_TSTRING:
            var length = 0
            let pointer = flowlua_tostring(L, index, &length)
            return .string(String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self))
        case LUA_TTABLE:
            return depth < 32 ? table(at: index, depth: depth) : .opaque("table")
        default:
            return .opaque(String(cString: lua_typename(L, lua_type(L, index))))
        }
    }

    private func table(at index: Int32, depth: Int) -> LuaValue {
        let absolute = lua_absindex(L, index)
        var array: [LuaValue] = []
        var dictionary: [String: LuaValue] = [:]
        lua_pushnil(L)
        // lua_next raises only on a key changed during traversal, which this loop never does.
        while lua_next(L, absolute) != 0 {
            let element = value(at: -1, depth: depth + 1)
            if lua_type(L, -2) == LUA_TNUMBER, lua_isinteger(L, -2) != 0 {
                let key = flowlua_tointeger(L, -2)
                dictionary[String(key)] = element
                if key == array.count + 1 { array.append(element) }
            } else if lua_type(L, -2) == LUA_TSTRING {
                var length = 0
                let pointer = flowlua_tostring(L, -2, &length)  // safe: the key is a string already
                dictionary[String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)] = element
            }
            flowlua_pop(L, 1)
        }
        if array.count == dictionary.count { return .array(array) }
        return .table(dictionary)
    }
}
