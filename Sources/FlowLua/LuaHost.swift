import CFlowLua
import CLua

/// What a host (FlowRuntime's context) gives Lua: Swift functions known by a number. Lua calls
/// each through one trampoline, which finds the host in the state and hands it the calling
/// thread as a `LuaThread`, so no Lua state pointer reaches the host's code.
package protocol LuaHost: AnyObject {
    /// Runs host function `function` for a call from Lua on `thread`: it reads its arguments
    /// from the thread's stack, pushes its results and returns their count, or pushes an
    /// error message and returns -1 (the error is raised from C, never across Swift frames).
    func callHostFunction(_ function: Int32, on thread: LuaThread) -> Int32
}

/// What a state's extra space points to when a host is set: the host, not retained (the host
/// owns the state and outlives it).
final class LuaHostBox {
    unowned(unsafe) let host: any LuaHost

    init(_ host: any LuaHost) { self.host = host }
}

extension LuaState {
    /// Makes `host` the one whose functions `LuaStack.push(hostFunction:upvalues:)` calls.
    /// The state keeps the link; the host must outlive the state (it closes it).
    package func setHost(_ host: any LuaHost) {
        let box = LuaHostBox(host)
        hostBox = box
        stack.setHost(Unmanaged.passUnretained(box).toOpaque())
    }
}

/// The one C function every host function goes through: upvalue 2 holds its number.
private let hostTrampoline: LuaSwiftFunction = { L in
    let function = Int32(truncatingIfNeeded: flowlua_tointeger(L, flowlua_upvalueindex(2)))
    let box = Unmanaged<LuaHostBox>.fromOpaque(LuaStack.host(of: L)).takeUnretainedValue()
    return box.host.callHostFunction(function, on: LuaThread(L!))
}

extension LuaStack {
    /// The thread this stack belongs to.
    package var thread: LuaThread { LuaThread(L) }

    /// A stack of `thread` (the state's main thread, or the coroutine a host function was
    /// called from).
    package init(_ thread: LuaThread, bridge: (any LuaFunctionBridge)?) {
        self.init(thread.L, bridge: bridge)
    }

    /// Pushes a Lua function that calls the host's function `function`; the `upvalues` values
    /// on top of the stack are popped into it, where `hostUpvalue(_:)` finds them.
    package func push(hostFunction function: Int32, upvalues: Int32 = 0) {
        lua_pushinteger(L, lua_Integer(function))
        flowlua_insert(L, -(upvalues + 1))
        push(function: hostTrampoline, upvalues: upvalues + 1)
    }

    /// The pseudo-index of a host function's own upvalue `number` (1 is its first).
    package func hostUpvalue(_ number: Int32) -> Int32 {
        flowlua_upvalueindex(number + 2)
    }

    /// Pushes a full userdata holding `tag`, with the metatable registered as `metatableName`,
    /// whose `__gc` calls the host's function `collector` (set when this call creates the
    /// metatable); the collector finds the userdata at index 1.
    package func push(tag: Int, metatableName: String, hostCollector collector: Int32) {
        flowlua_newuserdata(L, MemoryLayout<Int>.size)!.storeBytes(of: tag, as: Int.self)
        if luaL_newmetatable(L, metatableName) != 0 {
            push(hostFunction: collector)
            lua_setfield(L, -2, "__gc")
        }
        lua_setmetatable(L, -2)
    }
}

/// One argument of a set-up call (`LuaState.callKeepingResults(_:arguments:resultCount:on:)`):
/// pushed by FlowLua, counted by FlowLua.
package enum LuaSetupArgument {
    /// A host function, by number (`LuaHost`).
    case hostFunction(Int32)
    /// The value a registry reference holds.
    case referenced(Int32)
    /// A value, converted.
    case value(LuaValue)
}

extension LuaState {
    /// Runs `chunk` with `arguments` in protected mode (no traceback: set-up code is the
    /// host's), and keeps its `resultCount` results as registry references, in order. The
    /// stack is as it was afterwards, on success or failure.
    package func callKeepingResults(
        _ chunk: LuaPrecompiledChunk, arguments: [LuaSetupArgument], resultCount: Int32, on thread: LuaThread
    ) throws -> [Int32] {
        let stack = LuaStack(thread, bridge: bridge)
        try load(chunk, on: thread)
        guard stack.reserve(Int32(clamping: arguments.count)) else {
            stack.pop()
            throw LuaError(kind: .memory, message: "too many arguments (\(arguments.count))")
        }
        for argument in arguments {
            switch argument {
            case .hostFunction(let function): stack.push(hostFunction: function)
            case .referenced(let reference): stack.push(referenced: reference)
            case .value(let value): stack.push(value)
            }
        }
        return try stack.callKeepingResults(argumentCount: Int32(arguments.count), resultCount: resultCount)
    }

    /// Calls the function registry reference `reference` holds with `arguments` on `thread`,
    /// in protected mode with a traceback, and returns all its results.
    package func call(referenced reference: Int32, arguments: [LuaValue], on thread: LuaThread) throws -> [LuaValue] {
        let stack = LuaStack(thread, bridge: bridge)
        guard stack.reserve(Int32(clamping: arguments.count + 1)) else {
            throw LuaError(kind: .memory, message: "too many arguments (\(arguments.count))")
        }
        stack.push(referenced: reference)
        for argument in arguments { stack.push(argument) }
        return try call(argumentCount: Int32(arguments.count), on: thread.L)
    }

    /// Pushes the compiled text chunk on `thread`'s stack, or throws its syntax error.
    package func load(_ source: UnsafeRawBufferPointer, rawChunkName: String, on thread: LuaThread) throws {
        try load(source, rawChunkName: rawChunkName, on: thread.L)
    }

    /// Pushes a source file's compiled chunk on `thread`'s stack, as `luaL_loadfile` reads it.
    package func loadFile(_ source: UnsafeRawBufferPointer, rawChunkName: String, on thread: LuaThread) throws {
        try loadFile(source, rawChunkName: rawChunkName, on: thread.L)
    }

    /// Calls the function below `argumentCount` arguments on `thread`'s stack, with a
    /// traceback on error, and pops it and its results.
    package func call(argumentCount: Int32, on thread: LuaThread) throws -> [LuaValue] {
        try call(argumentCount: argumentCount, on: thread.L)
    }

    /// Calls the function below `argumentCount` arguments on `thread`'s stack, leaving
    /// `resultCount` results in its place.
    package func protectedCall(argumentCount: Int32, resultCount: Int32, on thread: LuaThread) throws {
        try protectedCall(argumentCount: argumentCount, resultCount: resultCount, on: thread.L)
    }

    /// The state's main thread, as a handle.
    package var main: LuaThread { LuaThread(L) }
}

/// The C stack Lua code gets on a thread: a context runs on its caller's thread only when that
/// stack is as large as the one it would give its own thread.
package enum LuaCStack {
    /// The calling thread's stack size in bytes (0 when unknown); asked once per thread.
    package static var sizeOfCurrentThread: Int { Int(flowlua_thread_stack_size()) }
}
