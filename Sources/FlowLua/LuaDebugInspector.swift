import CLua

/// One call on a thread's stack, as a debugger shows it.
package struct LuaFrame: Sendable, Equatable {
    /// 0 is the running function.
    package var level: Int
    /// The function's name as Lua finds it (`helper`, `Account:deposit`), `main chunk`, or `?`.
    package var name: String
    /// The chunk name without Lua's `@` (`Sources/Main.lua`), or nil for C and string chunks.
    package var chunk: String?
    package var line: Int
    /// A C function or one of flowpkg's own setup chunks, which a stack shown to a user skips.
    package var isInternal: Bool
}

/// A value shown in a debugger: its name, its text, its Lua type, and a handle (non-zero) when
/// it has children to expand (a table's fields, a long string's whole text).
package struct LuaDebugValue: Sendable, Equatable {
    package var name: String
    package var value: String
    package var type: String
    package var handle: Int
}

/// What a debugger reads and changes in a stopped state: frames, locals, upvalues, varargs,
/// globals, table fields, and expressions evaluated where a frame stands. Runs on the thread
/// that runs the state's Lua code, while it is stopped in a hook (or idle on its executor).
///
/// Values with children get handles, kept in a registry table until `forgetHandles()` (each
/// time the program resumes), so a handle never outlives the stop it was given in.
package final class LuaDebugInspector {
    private let state: LuaState
    private var handles: Int32 = LUA_NOREF
    private var handleCount = 0
    /// Strings longer than this are cut in `value`, whole in their child.
    package var stringLimit = 200

    package init(state: LuaState) {
        self.state = state
    }

    /// Lets go of every handle given out (the values may be collected).
    package func forgetHandles() {
        if handles != LUA_NOREF { luaL_unref(state.mainThread, flowlua_registryindex(), handles) }
        handles = LUA_NOREF
        handleCount = 0
    }

    // MARK: Frames

    /// The calls on `thread`'s stack, innermost first.
    package func frames(of thread: LuaThread) -> [LuaFrame] {
        var frames: [LuaFrame] = []
        var ar = lua_Debug()
        var level: Int32 = 0
        while lua_getstack(thread.L, level, &ar) != 0 {
            lua_getinfo(thread.L, "nSl", &ar)
            let source = ar.source.map { String(cString: $0) } ?? "?"
            let what = ar.what.map { String(cString: $0) } ?? ""
            // Unnamed (a coroutine's body, a tail call): where it is defined, as Lua's traceback says.
            let place = source.hasPrefix("@") ? "function <\(source.dropFirst()):\(ar.linedefined)>" : "?"
            var name =
                ar.name.map { String(cString: $0) } ?? (what == "main" ? "main chunk" : what == "Lua" ? place : "?")
            if let kind = ar.namewhat.map({ String(cString: $0) }), kind == "method", ar.name != nil {
                name = ":" + name
            }
            let chunk = source.hasPrefix("@") ? String(source.dropFirst()) : nil
            frames.append(
                LuaFrame(
                    level: Int(level), name: name, chunk: chunk, line: Int(ar.currentline),
                    isInternal: what == "C" || source.hasPrefix("=flowpkg:")))
            level += 1
        }
        return frames
    }

    // MARK: Variables

    /// The locals active at `level` of `thread` (temporaries such as `(for state)` left out).
    package func locals(of thread: LuaThread, level: Int, runner: LuaThread) -> [LuaDebugValue] {
        namedSlots(of: thread, level: level, runner: runner, first: 1, step: 1).map(\.value)
    }

    /// The extra arguments (`...`) of the function at `level`, as `...[1]`, `...[2]`…
    package func varargs(of thread: LuaThread, level: Int, runner: LuaThread) -> [LuaDebugValue] {
        var ar = lua_Debug()
        guard lua_getstack(thread.L, Int32(level), &ar) != 0 else { return [] }
        var values: [LuaDebugValue] = []
        var index: Int32 = -1
        while lua_checkstack(runner.L, 2) != 0, lua_getlocal(thread.L, &ar, index) != nil {
            lua_xmove(thread.L, runner.L, 1)
            values.append(describeTop(runner, name: "...[\(-index)]"))
            index -= 1
        }
        return values
    }

    /// The upvalues of the function running at `level` of `thread`.
    package func upvalues(of thread: LuaThread, level: Int, runner: LuaThread) -> [LuaDebugValue] {
        guard pushFunction(of: thread, level: level, onto: runner) else { return [] }
        defer { flowlua_pop(runner.L, 1) }
        var values: [LuaDebugValue] = []
        var index: Int32 = 1
        while lua_checkstack(runner.L, 2) != 0, let name = lua_getupvalue(runner.L, -1, index) {
            let text = String(cString: name)
            values.append(describeTop(runner, name: text.isEmpty ? "?" : text))
            index += 1
        }
        return values
    }

    /// The global table's fields.
    package func globals(runner: LuaThread) -> [LuaDebugValue] {
        flowlua_pushglobaltable(runner.L)
        defer { flowlua_pop(runner.L, 1) }
        return fields(ofTableAt: -1, runner: runner)
    }

    /// The children of the value a handle names: a table's fields and metatable, a long
    /// string's whole text, a function's upvalues.
    package func children(of handle: Int, runner: LuaThread) -> [LuaDebugValue] {
        guard pushHandle(handle, onto: runner) else { return [] }
        defer { flowlua_pop(runner.L, 1) }
        switch lua_type(runner.L, -1) {
        case LUA_TSTRING:
            let text = LuaStack(runner.L, bridge: nil).bytes(at: -1) ?? []
            return [LuaDebugValue(name: "whole", value: quoted(text), type: "string", handle: 0)]
        case LUA_TTABLE:
            return fields(ofTableAt: -1, runner: runner)
        default:
            var values: [LuaDebugValue] = []
            if lua_getmetatable(runner.L, -1) != 0 { values.append(describeTop(runner, name: "(metatable)")) }
            return values
        }
    }

    /// Sets the local `name` at `level` of `thread` to what `expression` evaluates to there;
    /// returns the new value.
    package func setLocal(
        _ name: String, to expression: String, of thread: LuaThread, level: Int, runner: LuaThread
    ) throws -> LuaDebugValue {
        guard
            let slot = namedSlots(of: thread, level: level, runner: runner, first: 1, step: 1).last(where: {
                $0.value.name == name
            })
        else { throw LuaError(kind: .other, message: "no local '\(name)' in this frame") }
        try evaluateToTop(expression, frame: (thread, level), runner: runner)
        let result = describeTop(runner, name: name, keep: true)
        var ar = lua_Debug()
        lua_getstack(thread.L, Int32(level), &ar)
        lua_xmove(runner.L, thread.L, 1)
        lua_setlocal(thread.L, &ar, slot.index)
        return result
    }

    /// Sets the upvalue `name` of the function at `level` of `thread`.
    package func setUpvalue(
        _ name: String, to expression: String, of thread: LuaThread, level: Int, runner: LuaThread
    ) throws -> LuaDebugValue {
        try evaluateToTop(expression, frame: (thread, level), runner: runner)
        let result = describeTop(runner, name: name, keep: true)
        guard pushFunction(of: thread, level: level, onto: runner) else {
            flowlua_pop(runner.L, 1)
            throw LuaError(kind: .other, message: "no function at this frame")
        }
        var index: Int32 = 1
        while let upvalue = lua_getupvalue(runner.L, -1, index) {
            flowlua_pop(runner.L, 1)
            if String(cString: upvalue) == name {
                lua_pushvalue(runner.L, -2)
                lua_setupvalue(runner.L, -2, index)
                flowlua_pop(runner.L, 2)
                return result
            }
            index += 1
        }
        flowlua_pop(runner.L, 2)
        throw LuaError(kind: .other, message: "no upvalue '\(name)' in this frame")
    }

    /// Sets field `name` (as `children` shows it: `count`, `[3]`, `["a b"]`) of the table a
    /// handle names, raw, to what `expression` evaluates to in the frame.
    package func setField(
        _ name: String, of handle: Int, to expression: String, frame: (LuaThread, Int)?, runner: LuaThread
    ) throws -> LuaDebugValue {
        guard pushHandle(handle, onto: runner), lua_type(runner.L, -1) == LUA_TTABLE else {
            throw LuaError(kind: .other, message: "only a table's fields can be set")
        }
        if name.hasPrefix("[") && name.hasSuffix("]") {
            try evaluateToTop(String(name.dropFirst().dropLast()), frame: frame, runner: runner)
        } else {
            LuaStack(runner.L, bridge: nil).push(message: name)
        }
        try evaluateToTop(expression, frame: frame, runner: runner)
        let result = describeTop(runner, name: name, keep: true)
        lua_rawset(runner.L, -3)
        flowlua_pop(runner.L, 1)
        return result
    }

    // MARK: Evaluation

    /// Evaluates `expression` (or runs it as a statement when it is not one) where `frame`
    /// stands, seeing its locals and upvalues before the globals; an assignment to a local or
    /// an upvalue changes it in the frame. Without a frame, in the global environment.
    package func evaluate(_ expression: String, frame: (LuaThread, Int)?, runner: LuaThread) throws -> LuaDebugValue {
        let base = lua_gettop(runner.L)
        try evaluate(expression, frame: frame, runner: runner, results: LUA_MULTRET)
        let count = lua_gettop(runner.L) - base
        guard count > 0 else { return LuaDebugValue(name: "", value: "nil", type: "nil", handle: 0) }
        var shown: [LuaDebugValue] = []
        for index in 0..<count {
            lua_pushvalue(runner.L, base + 1 + index)
            shown.append(describeTop(runner, name: ""))
        }
        lua_settop(runner.L, base)
        if shown.count == 1 { return shown[0] }
        return LuaDebugValue(
            name: "", value: shown.map(\.value).joined(separator: ", "), type: shown[0].type, handle: shown[0].handle)
    }

    /// Whether `expression` is true in Lua's sense where the frame stands (a breakpoint's
    /// condition); an error counts as true, so a broken condition still stops.
    package func isTrue(_ expression: String, frame: (LuaThread, Int), runner: LuaThread) -> Bool {
        do {
            try evaluateToTop(expression, frame: frame, runner: runner)
            defer { flowlua_pop(runner.L, 1) }
            return lua_toboolean(runner.L, -1) != 0
        } catch {
            return true
        }
    }

    /// A log point's message: each `{expression}` replaced by its value's text.
    package func interpolate(_ template: String, frame: (LuaThread, Int), runner: LuaThread) -> String {
        var output = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            output += rest[..<open]
            let expression = String(rest[rest.index(after: open)..<close])
            if let value = try? evaluate(expression, frame: frame, runner: runner) {
                output += value.type == "string" ? plainText(value.value) : value.value
            } else {
                output += "{" + expression + "}"
            }
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    private func plainText(_ quotedValue: String) -> String {
        guard quotedValue.hasPrefix("\""), quotedValue.hasSuffix("\""), quotedValue.count >= 2 else {
            return quotedValue
        }
        return String(quotedValue.dropFirst().dropLast())
            .replacingOccurrences("\\n", "\n").replacingOccurrences("\\\"", "\"").replacingOccurrences("\\\\", "\\")
    }

    private func evaluateToTop(_ expression: String, frame: (LuaThread, Int)?, runner: LuaThread) throws {
        try evaluate(expression, frame: frame, runner: runner, results: 1)
    }

    private func evaluate(_ expression: String, frame: (LuaThread, Int)?, runner: LuaThread, results: Int32) throws {
        let L = runner.L
        guard lua_checkstack(L, 8) != 0 else { throw LuaError(kind: .memory, message: "stack overflow") }
        var source = "return " + expression
        var loaded = source.withUTF8 { buffer in
            luaL_loadbufferx(
                L, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), buffer.count,
                "=(evaluate)", "t")
        }
        if loaded != LUA_OK {
            flowlua_pop(L, 1)
            source = expression
            loaded = source.withUTF8 { buffer in
                luaL_loadbufferx(
                    L, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), buffer.count,
                    "=(evaluate)", "t")
            }
            if loaded != LUA_OK { throw LuaError.pop(status: loaded, from: L) }
        }
        var names: [(name: String, index: Int32, isLocal: Bool)] = []
        var envReference = LUA_NOREF
        if let (thread, level) = frame {
            // env: the frame's upvalues, then its locals over them; anything else from its _ENV.
            lua_createtable(L, 0, 8)
            let env = lua_gettop(L)
            var fallback = false
            if pushFunction(of: thread, level: level, onto: runner) {
                var index: Int32 = 1
                while let name = lua_getupvalue(L, -1, index) {
                    let text = String(cString: name)
                    if text == "_ENV" {
                        lua_createtable(L, 0, 2)
                        lua_pushvalue(L, -2)
                        lua_setfield(L, -2, "__index")
                        lua_pushvalue(L, -2)
                        lua_setfield(L, -2, "__newindex")
                        lua_setmetatable(L, env)
                        fallback = true
                        flowlua_pop(L, 1)
                    } else if !text.isEmpty {
                        lua_setfield(L, env, text)
                        names.append((text, index, false))
                    } else {
                        flowlua_pop(L, 1)
                    }
                    index += 1
                }
                flowlua_pop(L, 1)
            }
            var frameInfo = lua_Debug()
            lua_getstack(thread.L, Int32(level), &frameInfo)
            for slot in namedSlots(of: thread, level: level, runner: runner, first: 1, step: 1) {
                lua_getlocal(thread.L, &frameInfo, slot.index)
                lua_xmove(thread.L, L, 1)
                lua_setfield(L, env, slot.value.name)
                names.append((slot.value.name, slot.index, true))
            }
            if !fallback {
                lua_createtable(L, 0, 2)
                flowlua_pushglobaltable(L)
                lua_setfield(L, -2, "__index")
                flowlua_pushglobaltable(L)
                lua_setfield(L, -2, "__newindex")
                lua_setmetatable(L, env)
            }
            lua_pushvalue(L, env)
            envReference = luaL_ref(L, flowlua_registryindex())
            lua_setupvalue(L, env - 1, 1)
        }
        defer { if envReference != LUA_NOREF { luaL_unref(L, flowlua_registryindex(), envReference) } }
        try state.protectedCall(argumentCount: 0, resultCount: results, on: L)
        guard let (thread, level) = frame else { return }
        // Write back what the expression assigned to a local or an upvalue.
        var ar = lua_Debug()
        guard lua_getstack(thread.L, Int32(level), &ar) != 0, lua_checkstack(L, 4) != 0 else { return }
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(envReference))
        for entry in names {
            lua_getfield(L, -1, entry.name)
            if entry.isLocal {
                lua_xmove(L, thread.L, 1)
                lua_setlocal(thread.L, &ar, entry.index)
            } else if pushFunction(of: thread, level: level, onto: runner) {
                lua_rotate(L, -2, 1)
                lua_setupvalue(L, -2, entry.index)
                flowlua_pop(L, 1)
            } else {
                flowlua_pop(L, 1)
            }
        }
        flowlua_pop(L, 1)
    }

    // MARK: Helpers

    private struct Slot {
        var value: LuaDebugValue
        var index: Int32
    }

    /// The named locals at `level`, each only once (the innermost of a name wins, as Lua's
    /// scoping does); with `push`, their values stay pushed on `runner`, in order.
    private func namedSlots(
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

    private func pushFunction(of thread: LuaThread, level: Int, onto runner: LuaThread) -> Bool {
        var ar = lua_Debug()
        guard lua_getstack(thread.L, Int32(level), &ar) != 0 else { return false }
        lua_getinfo(thread.L, "f", &ar)
        lua_xmove(thread.L, runner.L, 1)
        return true
    }

    private func pushHandle(_ handle: Int, onto runner: LuaThread) -> Bool {
        guard handles != LUA_NOREF, handle > 0, handle <= handleCount else { return false }
        lua_rawgeti(runner.L, flowlua_registryindex(), lua_Integer(handles))
        lua_rawgeti(runner.L, -1, lua_Integer(handle))
        flowlua_remove(runner.L, -2)
        return true
    }

    private func newHandle(forTopOf runner: LuaThread) -> Int {
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
    private func describeTop(_ runner: LuaThread, name: String, keep: Bool = false) -> LuaDebugValue {
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

    private func fields(ofTableAt index: Int32, runner: LuaThread) -> [LuaDebugValue] {
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

    private func address(_ L: OpaquePointer) -> String {
        guard let pointer = lua_topointer(L, -1) else { return "" }
        return "0x" + String(UInt(bitPattern: pointer), radix: 16)
    }

    private func quoted(_ bytes: [UInt8]) -> String {
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

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
