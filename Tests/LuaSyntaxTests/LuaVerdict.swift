import FlowLua

/// Lua 5.4's own verdict on a chunk, from the compiler validation uses (`LuaChunkChecker`),
/// reading the bytes as Lua's file loader does (a byte order mark and a `#` first line skipped).
enum LuaVerdict {
    static func compiles(_ bytes: [UInt8], with checker: LuaChunkChecker) -> Bool {
        bytes.withUnsafeBytes { buffer in
            let start = loaderStart(in: buffer)
            return (try? checker.check(UnsafeRawBufferPointer(rebasing: buffer[start...]), chunkName: "chunk.lua"))
                != nil
        }
    }

    /// Where `luaL_loadfile` starts: after a UTF-8 byte order mark, at the line break ending a
    /// first line that starts with `#`.
    static func loaderStart(in source: UnsafeRawBufferPointer) -> Int {
        var start = 0
        if source.count >= 3, source[0] == 0xEF, source[1] == 0xBB, source[2] == 0xBF { start = 3 }
        guard start < source.count, source[start] == UInt8(ascii: "#") else { return start }
        while start < source.count, source[start] != 0x0A, source[start] != 0x0D { start += 1 }
        return start
    }
}
