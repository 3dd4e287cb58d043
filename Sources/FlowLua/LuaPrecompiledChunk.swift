import CLua

/// A chunk of the host's own Lua, compiled once per process and loaded into each new state
/// from its bytecode: undumping a chunk costs a small part of compiling it again, and a
/// context runs its set-up chunks at every start (`Benchmarks/README.md`, host_launch).
///
/// Only text the host wrote is precompiled (never a program's code, which is always loaded as
/// text), and the bytecode never leaves the process, so a Lua build of another version or
/// word size never reads it. Debug information is kept: tracebacks still name the chunk.
package final class LuaPrecompiledChunk: Sendable {
    /// Lua's own chunk name (`=flowpkg:host`).
    package let rawChunkName: String
    let bytecode: [UInt8]

    /// Compiles `source` now. The source is the host's own and known to compile; a syntax
    /// error in it is a programming error and stops the process with Lua's message.
    package init(_ source: String, rawChunkName: String) {
        self.rawChunkName = rawChunkName
        guard let L = luaL_newstate() else { fatalError("cannot create a Lua state: out of memory") }
        defer { lua_close(L) }
        var text = source
        let status = text.withUTF8 { buffer in
            luaL_loadbufferx(
                L, UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self), buffer.count,
                rawChunkName, "t")
        }
        guard status == LUA_OK else {
            fatalError("\(rawChunkName) does not compile: \(LuaError.pop(status: status, from: L).message)")
        }
        var bytes: [UInt8] = []
        withUnsafeMutablePointer(to: &bytes) { pointer in
            _ = lua_dump(L, Self.collect, pointer, 0)
        }
        bytecode = bytes
    }

    /// lua_Writer: appends each piece of the dump to the `[UInt8]` `data` points to.
    private static let collect: lua_Writer = { _, piece, size, data in
        guard let piece, let data else { return 1 }
        data.assumingMemoryBound(to: [UInt8].self).pointee
            .append(contentsOf: UnsafeRawBufferPointer(start: piece, count: size))
        return 0
    }
}

extension LuaState {
    /// Pushes `chunk`'s main function on `thread`'s stack, from its bytecode.
    package func load(_ chunk: LuaPrecompiledChunk, on thread: LuaThread) throws {
        let status = chunk.bytecode.withUnsafeBytes { raw in
            luaL_loadbufferx(
                thread.L, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, chunk.rawChunkName, "b")
        }
        guard status == LUA_OK else { throw LuaError.pop(status: status, from: thread.L) }
    }
}
