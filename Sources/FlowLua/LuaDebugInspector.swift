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
    let state: LuaState
    var handles: Int32 = LUA_NOREF
    var handleCount = 0
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
}
