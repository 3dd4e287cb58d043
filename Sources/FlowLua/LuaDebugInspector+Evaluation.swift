import CLua

/// Expressions and statements evaluated where a stopped frame stands.
extension LuaDebugInspector {
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

    func plainText(_ quotedValue: String) -> String {
        guard quotedValue.hasPrefix("\""), quotedValue.hasSuffix("\""), quotedValue.count >= 2 else {
            return quotedValue
        }
        return String(quotedValue.dropFirst().dropLast())
            .replacingOccurrences("\\n", "\n").replacingOccurrences("\\\"", "\"").replacingOccurrences("\\\\", "\\")
    }

    func evaluateToTop(_ expression: String, frame: (LuaThread, Int)?, runner: LuaThread) throws {
        try evaluate(expression, frame: frame, runner: runner, results: 1)
    }

    func evaluate(_ expression: String, frame: (LuaThread, Int)?, runner: LuaThread, results: Int32) throws {
        let L = runner.L
        guard lua_checkstack(L, 8) != 0 else { throw LuaError(kind: .memory, message: "stack overflow") }
        try loadExpression(expression, on: runner)
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
        writeBack(names, from: envReference, to: thread, level: level, runner: runner)
    }

    /// Compiles `expression` onto the runner's stack as `return EXPR`, else as a statement.
    private func loadExpression(_ expression: String, on runner: LuaThread) throws {
        let L = runner.L
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
    }

    /// Writes back to the frame's locals and upvalues what the evaluation assigned to their
    /// names in its environment table (held by `envReference`).
    private func writeBack(
        _ names: [(name: String, index: Int32, isLocal: Bool)], from envReference: Int32, to thread: LuaThread,
        level: Int, runner: LuaThread
    ) {
        let L = runner.L
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
