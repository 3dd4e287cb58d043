import CFlowLua
import CLua

/// One Lua 5.4 state, owned by this object and closed with it.
///
/// It compiles and runs chunks and turns Lua's status codes into `LuaError`s. It is not
/// thread-safe: use one state per thread (the validator) or one serial executor (a context).
public final class LuaState {
    /// The raw state: FlowLua's wrapper types only (internal, so nothing above FlowLua can
    /// reach it; the runtime speaks `LuaStack`'s typed operations).
    let L: OpaquePointer
    /// The context that hands functions across, when this state belongs to one.
    package weak var bridge: (any LuaFunctionBridge)?
    /// The host `setHost(_:)` set, which the state's extra space points to.
    var hostBox: LuaHostBox?

    /// A fresh state; with `openLibraries`, Lua's standard libraries are loaded into it.
    public convenience init(openLibraries: Bool = true) throws {
        try self.init(openLibraries: openLibraries, pooled: false)
    }

    /// A fresh state as `init(openLibraries:)` makes one; `pooled`, its blocks of up to 512
    /// bytes come from a pool of its own, given back whole when it closes
    /// (`Sources/CFlowLua/pool.c`): a context's state, made at every launch.
    package init(openLibraries: Bool, pooled: Bool) throws {
        var pool: UnsafeMutablePointer<flowlua_pool>?
        if pooled {
            pool = .allocate(capacity: 1)
            pool?.initialize(to: flowlua_pool())
        }
        guard let state = pool != nil ? flowlua_newpooledstate(pool) : luaL_newstate() else {
            pool?.deallocate()
            throw LuaError(kind: .memory, message: "cannot create a Lua state: out of memory")
        }
        L = state
        self.pool = pool
        if openLibraries {
            if pooled { flowlua_pooled_openlibs(L) } else { luaL_openlibs(L) }
        }
    }

    /// The bounds of a state made with `init(limits:)`, which its allocator and hook update.
    private var budget: UnsafeMutablePointer<flowlua_budget>?
    /// The small-block pool of a state made `pooled`.
    private var pool: UnsafeMutablePointer<flowlua_pool>?

    /// A fresh state with the standard libraries, whose allocations never pass
    /// `limits.memory` (Lua then raises "not enough memory"), and where Lua's `budget_start()`
    /// and `budget_stop()` bound what runs between them by instructions and by wall-clock and
    /// CPU time. For Lua flowpkg runs on a user's behalf, such as `.luacheckrc`.
    public init(limits: LuaLimits) throws {
        let budget = UnsafeMutablePointer<flowlua_budget>.allocate(capacity: 1)
        budget.initialize(
            to: flowlua_budget(
                used: 0, peak: 0, memory_limit: limits.memory, instructions: 0,
                instruction_limit: Int64(limits.instructions), wall_deadline: 0, cpu_deadline: 0,
                seconds: limits.seconds, exceeded: 0))
        guard let state = flowlua_newboundedstate(budget) else {
            budget.deallocate()
            throw LuaError(kind: .memory, message: "cannot create a Lua state: out of memory")
        }
        L = state
        self.budget = budget
    }

    /// Which bound a state made with `init(limits:)` passed first, if any.
    public var exceededLimit: LuaLimits.Bound? {
        switch budget?.pointee.exceeded {
        case 1: .memory
        case 2: .instructions
        case 3: .time
        default: nil
        }
    }

    /// Bytes the state holds now (a state made with `init(limits:)`; 0 for others).
    public var memoryInUse: Int { budget.map { Int($0.pointee.used) } ?? 0 }

    /// The most bytes the state held at once (a state made with `init(limits:)`; 0 for others).
    public var peakMemory: Int { budget.map { Int($0.pointee.peak) } ?? 0 }

    /// Instructions counted since `budget_start()` (a state made with `init(limits:)`).
    public var instructionsCounted: Int { budget.map { Int($0.pointee.instructions) } ?? 0 }

    private var isClosed = false

    deinit {
        close()
    }

    /// Closes the state now, as `lua_close` does: pending `__gc` finalizers and to-be-closed
    /// variables run. Nothing may use the state afterwards; a second call does nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        lua_close(L)
        budget?.deallocate()
        budget = nil
        if let pool {
            flowlua_pool_release(pool)
            pool.deallocate()
            self.pool = nil
        }
    }

    /// Compiles `source` without running it: a syntax check with Lua's own compiler.
    ///
    /// `chunkName` is what errors show (`"Foo/Bar.lua"` reads `Foo/Bar.lua:3: ...`).
    /// Binary chunks are refused.
    public func check(_ source: UnsafeRawBufferPointer, chunkName: String) throws {
        try load(source, chunkName: chunkName)
        flowlua_pop(L, 1)
    }

    /// Compiles `source` without running it.
    public func check(_ source: String, chunkName: String) throws {
        var source = source
        try source.withUTF8 { (buffer) in try check(UnsafeRawBufferPointer(buffer), chunkName: chunkName) }
    }

    /// Compiles and runs `source`, returning what the chunk returned, converted to Swift.
    @discardableResult
    public func run(_ source: String, chunkName: String) throws -> [LuaValue] {
        var source = source
        try source.withUTF8 { (buffer) in try load(UnsafeRawBufferPointer(buffer), chunkName: chunkName) }
        return try call(argumentCount: 0)
    }

    /// Compiles and runs `source` with `arguments` as its `...`, returning what it returned.
    @discardableResult
    public func run(_ source: String, chunkName: String, arguments: [LuaValue]) throws -> [LuaValue] {
        var source = source
        try source.withUTF8 { (buffer) in try load(UnsafeRawBufferPointer(buffer), chunkName: chunkName) }
        for argument in arguments { stack.push(argument) }
        return try call(argumentCount: Int32(arguments.count))
    }

    /// Pushes the compiled chunk on the stack, or throws its syntax error.
    package func load(_ source: UnsafeRawBufferPointer, chunkName: String) throws {
        try load(source, rawChunkName: "@" + chunkName, on: L)
    }

    /// Pushes the compiled text chunk on `thread`'s stack (this state's main thread or one of
    /// its coroutines), or throws its syntax error. `rawChunkName` is Lua's own form: `@file`
    /// or `=name`.
    package func load(_ source: UnsafeRawBufferPointer, rawChunkName: String, on thread: OpaquePointer) throws {
        try Self.loadText(source, rawChunkName: rawChunkName, on: thread)
    }

    /// Pushes the compiled text chunk on `thread`'s stack, or throws its syntax error: how every
    /// chunk is compiled, by a state or by `LuaChunkChecker` (binary chunks are refused).
    package static func loadText(_ source: UnsafeRawBufferPointer, rawChunkName: String, on thread: OpaquePointer)
        throws
    {
        let status = luaL_loadbufferx(
            thread, source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count, rawChunkName, "t")
        guard status == LUA_OK else { throw popError(status: status, on: thread) }
    }

    /// Pushes the compiled text chunk of a source file, as `luaL_loadfile` reads one: a UTF-8
    /// byte order mark and a first line starting with `#` (`#!/usr/bin/env lua`) are skipped,
    /// the line's newline kept so that line numbers stay those of the file.
    package func loadFile(_ source: UnsafeRawBufferPointer, rawChunkName: String, on thread: OpaquePointer) throws {
        var start = 0
        if source.count >= 3, source[0] == 0xEF, source[1] == 0xBB, source[2] == 0xBF { start = 3 }
        if start < source.count, source[start] == UInt8(ascii: "#") {
            while start < source.count, source[start] != UInt8(ascii: "\n") { start += 1 }
        }
        try load(UnsafeRawBufferPointer(rebasing: source[start...]), rawChunkName: rawChunkName, on: thread)
    }

    /// Calls the function below `argumentCount` arguments on the stack, with a traceback on error.
    package func call(argumentCount: Int32) throws -> [LuaValue] {
        try call(argumentCount: argumentCount, on: L)
    }

    /// Calls the function below `argumentCount` arguments on `thread`'s stack in protected
    /// mode, with a traceback on error, and pops it and its results.
    package func call(argumentCount: Int32, on thread: OpaquePointer) throws -> [LuaValue] {
        let base = lua_gettop(thread) - argumentCount - 1
        try protectedCall(argumentCount: argumentCount, resultCount: LUA_MULTRET, on: thread)
        let results = LuaStack(thread, bridge: bridge).values(from: base + 1)
        lua_settop(thread, base)
        return results
    }

    /// Calls the function below `argumentCount` arguments on `thread`'s stack in protected
    /// mode, with a traceback on error, leaving `resultCount` results in its place.
    package func protectedCall(argumentCount: Int32, resultCount: Int32, on thread: OpaquePointer) throws {
        let handler = lua_gettop(thread) - argumentCount
        if let hooks = LuaDebugHooks.active, hooks.stopsOnUncaughtErrors, hooks.owns(thread) {
            flowlua_pushcfunction(thread, LuaDebugHooks.uncaughtHandler)
        } else {
            flowlua_pushcfunction(thread, flowlua_traceback_handler)
        }
        flowlua_insert(thread, handler)
        let status = flowlua_pcall(thread, argumentCount, resultCount, handler)
        flowlua_remove(thread, handler)
        guard status == LUA_OK else { throw popError(status: status, on: thread) }
    }

    /// Pops the error value at the top and describes it; its text is copied out first.
    package func popError(status: Int32, on thread: OpaquePointer? = nil) -> LuaError {
        Self.popError(status: status, on: thread ?? L)
    }

    /// Pops the error value at the top of `thread`'s stack and describes it; its text is copied out first.
    package static func popError(status: Int32, on thread: OpaquePointer) -> LuaError {
        LuaError.pop(status: status, from: thread)
    }

    /// The Lua value at `index`, converted; tables become arrays or dictionaries.
    package func value(at index: Int32) -> LuaValue {
        stack.value(at: index)
    }

    /// The state's main thread, for API calls that take a thread (the runtime's coroutines
    /// are the others).
    package var mainThread: OpaquePointer { L }

    /// This state's main stack, converting functions through `bridge` when a context set one.
    package var stack: LuaStack { LuaStack(L, bridge: bridge) }
}
