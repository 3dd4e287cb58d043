import CLua

extension LuaState {
    /// The lines of a chunk that hold code, in every function it defines: Lua 5.4's
    /// `activelines`, for the functions `lua_getinfo` cannot reach before they exist. The chunk
    /// is compiled (not run) and its line information read from `lua_dump`'s output.
    package func activeLines(ofChunk source: [UInt8], chunkName: String) throws -> Set<Int> {
        try lineFacts(ofChunk: source, chunkName: chunkName).lines
    }

    /// `activeLines`, and each function's own lines with the line it is defined on (what a
    /// breakpoint on a function by name resolves to).
    package func lineFacts(ofChunk source: [UInt8], chunkName: String) throws -> (
        lines: Set<Int>, functions: [LuaFunctionLines]
    ) {
        let L = mainThread
        try source.withUnsafeBytes { try loadFile($0, rawChunkName: "@" + chunkName, on: L) }
        let dumped = LuaDumpReader.dump(L, stripped: false)
        flowlua_pop(L, 1)
        guard let dumped else { throw LuaError(kind: .other, message: "cannot read the chunk's lines") }
        var reader = LuaDumpReader(bytes: dumped)
        return try reader.lineFacts()
    }
}

/// One function of a chunk: the line its definition starts on (0 for the main chunk) and the
/// lines its own code is on.
package struct LuaFunctionLines: Sendable, Equatable {
    package var lineDefined: Int
    package var lines: Set<Int>
}
