import CLua

extension LuaError {
    /// Pops the error value at the top of `thread`'s stack and describes it; its text is copied
    /// out first, before anything can collect it.
    package static func pop(status: Int32, from thread: OpaquePointer) -> LuaError {
        var text = "(error object is not a string)"
        if lua_type(thread, -1) == LUA_TSTRING {  // never convert a number in place
            var length = 0
            if let pointer = flowlua_tostring(thread, -1, &length) {
                text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
            }
        }
        flowlua_pop(thread, 1)
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
            let start = (0...(bytes.count - marker.count)).first(where: {
                bytes[$0..<($0 + marker.count)].elementsEqual(marker)
            })
        {
            message = String(decoding: bytes[..<start], as: UTF8.self)
            traceback = String(decoding: bytes[(start + 1)...], as: UTF8.self)
        }
        let location = LuaError.locate(message)
        return LuaError(
            kind: kind, message: message, chunk: location?.chunk, line: location?.line, traceback: traceback)
    }
}
