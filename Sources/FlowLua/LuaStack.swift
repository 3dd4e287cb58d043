import CLua

/// Lets a context hand functions across: Lua functions become references, Swift closures
/// become Lua functions. A bare `LuaState` has none, and shows functions as `.opaque`.
package protocol LuaFunctionBridge: AnyObject {
    /// The function at `index` of `thread`'s stack, held by reference.
    func referenceFunction(at index: Int32, on thread: LuaThread) -> LuaValue
    /// Pushes `function` on `thread`'s stack.
    func pushFunction(_ function: LuaFunction, on thread: LuaThread)
}

/// Converts values between Swift and one Lua stack (the main thread's or a coroutine's).
///
/// None of these calls can raise a Lua error except on memory exhaustion: no metamethod is
/// ever triggered (raw table access only), and only string values are read as strings.
package struct LuaStack {
    let L: OpaquePointer
    package weak var bridge: (any LuaFunctionBridge)?

    package init(_ L: OpaquePointer, bridge: (any LuaFunctionBridge)?) {
        self.L = L
        self.bridge = bridge
    }

    /// The Lua value at `index`, converted; tables become arrays or dictionaries.
    package func value(at index: Int32, depth: Int = 0) -> LuaValue {
        switch lua_type(L, index) {
        case LUA_TNIL, LUA_TNONE: return .nil
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, index) != 0)
        case LUA_TNUMBER:
            if lua_isinteger(L, index) != 0 { return .integer(flowlua_tointeger(L, index)) }
            return .number(flowlua_tonumber(L, index))
        case LUA_TSTRING:
            return .string(String(decoding: bytes(at: index) ?? [], as: UTF8.self))
        case LUA_TTABLE:
            return depth < 32 ? table(at: index, depth: depth) : .opaque("table")
        case LUA_TFUNCTION:
            if let bridge { return bridge.referenceFunction(at: index, on: LuaThread(L)) }
            return .opaque("function")
        default:
            return .opaque(String(cString: lua_typename(L, lua_type(L, index))))
        }
    }

    /// The bytes of the string at `index`, or nil when the value there is not a string.
    package func bytes(at index: Int32) -> [UInt8]? {
        guard lua_type(L, index) == LUA_TSTRING else { return nil }  // never convert numbers in place
        var length = 0
        guard let pointer = flowlua_tostring(L, index, &length) else { return nil }
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    /// The values from `first` to the top of the stack.
    package func values(from first: Int32) -> [LuaValue] {
        let top = lua_gettop(L)
        guard top >= first else { return [] }
        return (first...top).map { value(at: $0) }
    }

    /// Pushes `value`, converted; arrays and dictionaries become new tables.
    package func push(_ value: LuaValue, depth: Int = 0) {
        // Room for this value and, in a table, its key (see `table(at:depth:)`).
        guard lua_checkstack(L, 2) != 0 else { return lua_pushnil(L) }
        switch value {
        case .nil, .opaque: lua_pushnil(L)
        case .bool(let flag): lua_pushboolean(L, flag ? 1 : 0)
        case .integer(let number): lua_pushinteger(L, number)
        case .number(let number): lua_pushnumber(L, number)
        case .string(let text): push(bytes: Array(text.utf8))
        case .array(let elements):
            lua_createtable(L, Int32(clamping: elements.count), 0)
            for (offset, element) in elements.enumerated() {
                push(element, depth: depth + 1)
                lua_rawseti(L, -2, lua_Integer(offset + 1))
            }
        case .table(let entries):
            lua_createtable(L, 0, Int32(clamping: entries.count))
            for (key, element) in entries.sorted(by: { $0.key < $1.key }) {
                push(bytes: Array(key.utf8))
                push(element, depth: depth + 1)
                lua_rawset(L, -3)
            }
        case .function(let function):
            if let bridge { bridge.pushFunction(function, on: LuaThread(L)) } else { lua_pushnil(L) }
        }
    }

    /// Pushes a Lua string holding exactly `bytes` (binary-safe).
    package func push(bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            _ = lua_pushlstring(L, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count)
        }
    }

    /// Pushes a string message; what Swift functions called from Lua push before returning -1.
    package func push(message: String) {
        push(bytes: Array(message.utf8))
    }

    private func table(at index: Int32, depth: Int) -> LuaValue {
        // Each nesting level holds a key and a value on the stack, and Lua guarantees only
        // LUA_MINSTACK free slots: without room, writing past them corrupts the heap.
        guard lua_checkstack(L, 3) != 0 else { return .opaque("table") }
        let absolute = lua_absindex(L, index)
        // Elements keyed 1, 2, 3, ... in traversal order (a sequence's array part comes so) go
        // straight to `elements`; any other key moves them all to `dictionary`. A list of
        // 500,000 globals is copied without a string made for each index (issue 43).
        var elements: [LuaValue] = []
        var dictionary: [String: LuaValue] = [:]
        var isSequence = true
        var integerKeysOnly = true
        lua_pushnil(L)
        // lua_next raises only on a key changed during traversal, which this loop never does.
        while lua_next(L, absolute) != 0 {
            let element = value(at: -1, depth: depth + 1)
            if lua_type(L, -2) == LUA_TNUMBER, lua_isinteger(L, -2) != 0 {
                let key = flowlua_tointeger(L, -2)
                if isSequence, key == Int64(elements.count) + 1 {
                    elements.append(element)
                } else {
                    Self.leaveSequence(&isSequence, &elements, into: &dictionary)
                    dictionary[String(key)] = element
                }
            } else if let key = bytes(at: -2) {
                Self.leaveSequence(&isSequence, &elements, into: &dictionary)
                integerKeysOnly = false
                dictionary[String(decoding: key, as: UTF8.self)] = element
            }
            flowlua_pop(L, 1)
        }
        // An array when the keys are exactly 1...n, whatever order the traversal met them in.
        if isSequence { return .array(elements) }
        let positional = dictionary.keys.compactMap { Int64($0) }.filter { $0 >= 1 }
        if integerKeysOnly, positional.count == dictionary.count, positional.max() == Int64(positional.count) {
            return .array((1...max(1, positional.count)).compactMap { dictionary[String($0)] })
        }
        return .table(dictionary)
    }

    /// A table found not to be a sequence in order: the elements met so far become entries.
    private static func leaveSequence(
        _ isSequence: inout Bool, _ elements: inout [LuaValue], into dictionary: inout [String: LuaValue]
    ) {
        guard isSequence else { return }
        isSequence = false
        for (offset, element) in elements.enumerated() { dictionary[String(offset + 1)] = element }
        elements = []
    }
}
