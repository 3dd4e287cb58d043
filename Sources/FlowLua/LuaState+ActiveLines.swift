import CLua

extension LuaState {
    /// The lines of a chunk that hold code, in every function it defines: Lua 5.4's
    /// `activelines`, for the functions `lua_getinfo` cannot reach before they exist. The chunk
    /// is compiled (not run) and its line information read from `lua_dump`'s output.
    package func activeLines(ofChunk source: [UInt8], chunkName: String) throws -> Set<Int> {
        let L = mainThread
        try source.withUnsafeBytes { try loadFile($0, rawChunkName: "@" + chunkName, on: L) }
        let dumped = LuaDumpReader.dump(L, stripped: false)
        flowlua_pop(L, 1)
        guard let dumped else { throw LuaError(kind: .other, message: "cannot read the chunk's lines") }
        var reader = LuaDumpReader(bytes: dumped)
        return try reader.activeLines()
    }
}
