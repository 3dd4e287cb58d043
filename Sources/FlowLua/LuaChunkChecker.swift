import CLua

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Compiles Lua chunks without running them, as `LuaState.check` does, for checking many
/// files one after another on one thread.
///
/// Each chunk is compiled by Lua's own compiler in a fresh state whose memory comes from an
/// arena, with the garbage collector stopped; afterwards the arena is reset and the state
/// goes with it. A long-lived state spends a good part of every compile in malloc, free and
/// collection steps over garbage that a check throws away whole anyway. Not thread-safe: one
/// checker per thread.
public final class LuaChunkChecker {
    private let arena: UnsafeMutablePointer<LuaArena>

    public init() {
        arena = .allocate(capacity: 1)
        arena.initialize(to: LuaArena())
    }

    deinit {
        arena.pointee.releaseAll()
        arena.deinitialize(count: 1)
        arena.deallocate()
    }

    /// Compiles `source` without running it; throws its syntax error (or a memory error).
    ///
    /// `chunkName` is what errors show (`"Foo/Bar.lua"` reads `Foo/Bar.lua:3: ...`).
    /// Binary chunks are refused.
    public func check(_ source: UnsafeRawBufferPointer, chunkName: String) throws {
        // No lua_close: every byte of the state is in the arena, and the state holds nothing
        // else (no libraries, no userdata, no open files), so the reset drops it whole.
        defer { arena.pointee.reset() }
        guard let state = lua_newstate(luaArenaAllocate, arena) else {
            throw LuaError(kind: .memory, message: "cannot create a Lua state: out of memory")
        }
        flowlua_gc_stop(state)
        try LuaState.loadText(source, rawChunkName: "@" + chunkName, on: state)
    }
}

/// Lua's allocation function over a `LuaArena`.
private func luaArenaAllocate(
    _ userData: UnsafeMutableRawPointer?, _ pointer: UnsafeMutableRawPointer?,
    _ oldSize: Int, _ newSize: Int
) -> UnsafeMutableRawPointer? {
    let arena = userData.unsafelyUnwrapped.assumingMemoryBound(to: LuaArena.self)
    guard let pointer else { return newSize == 0 ? nil : arena.pointee.allocate(newSize) }
    return arena.pointee.reallocate(pointer, from: oldSize, to: newSize)
}

/// Bump allocation over malloc'd blocks. Freed memory is reclaimed only by `reset()`, except
/// the most recent allocation, which also grows and shrinks in place (Lua's growing arrays).
struct LuaArena {
    /// The first block's size; enough for all but the largest modules.
    static let initialSize = 1 << 20
    /// Past this, a reset gives the memory back instead of keeping it for the next chunk.
    static let keptSize = 64 << 20
    /// Each block starts with a header holding the previous block, so all can be freed.
    static let headerSize = 16
    static let alignment = 16

    private var block: UnsafeMutableRawPointer?
    private var blockSize = 0
    private var next: UnsafeMutableRawPointer?
    private var end: UnsafeMutableRawPointer?
    private var last: UnsafeMutableRawPointer?
    /// Bytes of every block since the last reset, so a reset can make one block that fits them all.
    private var totalSize = 0

    @inline(__always)
    private static func rounded(_ size: Int) -> Int { (size + alignment - 1) & ~(alignment - 1) }

    @inline(__always)
    mutating func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let size = Self.rounded(size)
        if let next, let end, end - next >= size {
            self.next = next + size
            last = next
            return next
        }
        return allocateInNewBlock(size)
    }

    @inline(never)
    private mutating func allocateInNewBlock(_ size: Int) -> UnsafeMutableRawPointer? {
        guard addBlock(minimum: size), let next else { return nil }
        self.next = next + size
        last = next
        return next
    }

    @inline(__always)
    mutating func reallocate(_ pointer: UnsafeMutableRawPointer, from oldSize: Int, to newSize: Int)
        -> UnsafeMutableRawPointer?
    {
        let isLast = pointer == last
        if newSize == 0 {
            if isLast {
                next = pointer
                last = nil
            }
            return nil
        }
        if isLast, let end, end - pointer >= Self.rounded(newSize) {
            next = pointer + Self.rounded(newSize)
            return pointer
        }
        if newSize <= oldSize { return pointer }  // Lua counts on a shrink never failing
        guard let moved = allocate(newSize) else { return nil }
        moved.copyMemory(from: pointer, byteCount: oldSize)
        return moved
    }

    private mutating func addBlock(minimum: Int) -> Bool {
        let size = max(blockSize == 0 ? Self.initialSize : blockSize * 2, minimum + Self.headerSize)
        guard let memory = malloc(size) else { return false }
        memory.storeBytes(of: block, as: UnsafeMutableRawPointer?.self)
        block = memory
        blockSize = size
        next = memory + Self.headerSize
        end = memory + size
        last = nil
        totalSize += size
        return true
    }

    /// Forgets every allocation. Memory from several blocks becomes one block that fits it all
    /// (so the next chunk of that size needs no more), up to `keptSize`.
    mutating func reset() {
        guard let block else { return }
        let previous = block.load(as: UnsafeMutableRawPointer?.self)
        if previous == nil && blockSize <= Self.keptSize {
            next = block + Self.headerSize
            last = nil
            totalSize = blockSize
            return
        }
        let wanted = totalSize
        releaseAll()
        if wanted <= Self.keptSize { _ = addBlock(minimum: wanted - Self.headerSize) }
    }

    mutating func releaseAll() {
        var current = block
        while let memory = current {
            current = memory.load(as: UnsafeMutableRawPointer?.self)
            free(memory)
        }
        block = nil
        blockSize = 0
        next = nil
        end = nil
        last = nil
        totalSize = 0
    }
}

extension LuaChunkChecker {
    /// What Lua 5.4 compiles `source` to, stripped of debug information and of each function's
    /// line span: two sources give the same bytes exactly when they differ only in layout and
    /// comments (the instructions, constants in order, upvalues and nesting are all kept).
    /// A byte order mark and a `#` first line are skipped, as `lua` does; throws a syntax error.
    public func strippedBytecode(_ source: [UInt8], chunkName: String) throws -> [UInt8] {
        defer { arena.pointee.reset() }
        guard let state = lua_newstate(luaArenaAllocate, arena) else {
            throw LuaError(kind: .memory, message: "cannot create a Lua state: out of memory")
        }
        flowlua_gc_stop(state)
        var start = 0
        if source.count >= 3, source[0] == 0xEF, source[1] == 0xBB, source[2] == 0xBF { start = 3 }
        if start < source.count, source[start] == UInt8(ascii: "#") {
            while start < source.count, source[start] != UInt8(ascii: "\n") { start += 1 }
        }
        try source[start...].withUnsafeBytes { try LuaState.loadText($0, rawChunkName: "@" + chunkName, on: state) }
        guard let dumped = LuaDumpReader.dump(state, stripped: true) else {
            throw LuaError(kind: .other, message: "cannot dump the compiled chunk")
        }
        var reader = LuaDumpReader(bytes: dumped)
        return try reader.canonical()
    }
}
