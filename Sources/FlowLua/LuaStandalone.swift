import CFlowLua
import CLua

/// Stock `lua5.4`'s command line (lua.c), for a lone Lua file: `flowpkg run FILE.lua ARGS`
/// and the interpreter forms programs rebuild from `arg[-1]` (`flowpkg -e STAT FILE`,
/// `flowpkg -v`), which Penlight's `app.lua()` and its tests run.
///
/// The options are lua.c's: `-e stat`, `-l mod`, `-v`, `-E`, `-W`, `--`, `-` (stdin); a
/// script gets its arguments in `arg` (`arg[0]` the script, the interpreter and its options
/// below 0) and as `...`; `LUA_INIT_5_4` or `LUA_INIT` runs first unless `-E`. `-i` (the
/// interactive loop) is the one option left out. The state is closed before this returns,
/// so `__gc` finalizers and to-be-closed variables run, as in lua5.4.
public enum LuaStandalone {
    /// Runs `arguments` (the interpreter's name first, as C's `argv`) and returns the exit
    /// status; errors go to stderr as lua.c prints them, `NAME: message` and a traceback.
    ///
    /// With `sandbox`, the script runs without `io`, `debug`, `dofile`, `loadfile`,
    /// `package.loadlib`, C modules or binary chunks, and `os` has only `time`, `clock` and
    /// `date` (flowpkg run's `--sandbox`); with `trace`, each module `require` finds is named on
    /// stderr with the file it came from (`--trace`).
    ///
    /// `LuaInterrupt.request()` while it runs (the caller's Ctrl-C: FlowCLI's `Interrupt`)
    /// stops the script as lua5.4's Ctrl-C does, with "interrupted!" and a traceback; the state
    /// is closed (`<close>` handlers and finalizers run) and the status is 130, flowpkg's for an
    /// interrupt.
    public static func run(_ arguments: [String], sandbox: Bool = false, trace: Bool = false) -> Int32 {
        run(arguments, sandbox: sandbox, trace: trace, loads: nil)
    }

    /// What a debugger hears of a lone script's code, on the script's thread: the script once
    /// loaded, before it runs (`module` nil, `isScript` true), then each module `require` finds
    /// in a file, before it runs; `chunk` is the file's path as Lua names the chunk.
    package typealias LoadObserver = (_ state: LuaState, _ chunk: String, _ module: String?, _ isScript: Bool) -> Void

    /// `run`, telling `loads` of the code the script loads (a debugger's engine).
    package static func run(_ arguments: [String], sandbox: Bool, trace: Bool, loads: LoadObserver?) -> Int32 {
        guard let state = try? LuaState(openLibraries: true) else { return 1 }
        LuaInterrupt.arm(state)
        observing = loads.map { observer in (state, observer) }
        var status = run(arguments, in: state, sandbox: sandbox, trace: trace)
        observing = nil
        if LuaInterrupt.disarm() { status = 130 }
        state.close()
        return status
    }

    private static func run(_ arguments: [String], in state: LuaState, sandbox: Bool, trace: Bool) -> Int32 {
        let L = state.L
        do {
            try Array(EmbeddedLua.standalone.utf8).withUnsafeBytes {
                try state.load($0, rawChunkName: "=flowpkg:lua", on: L)
            }
        } catch {
            return 1
        }
        let stack = LuaStack(L, bridge: nil)
        stack.push(.array(arguments.map { .string($0) }))
        stack.push(message: copyright)
        stack.push(.bool(sandbox))
        stack.push(.bool(trace))
        if observing != nil {
            stack.push(function: loaded)
            stack.push(function: LuaDebugHooks.uncaughtReporter)
        } else {
            lua_pushnil(L)
            lua_pushnil(L)
        }
        return drive(L, argumentCount: 6)
    }

    /// Runs the driver (on top of L's stack, below its arguments) in a coroutine of its own.
    /// Each protected call it yields (a message handler, a function, its arguments) runs on L
    /// under `flowlua_call`, as lua.c's `docall` runs under `pmain`: a traceback then ends in
    /// `[C]: in ?` with no frame of the driver's. The driver is resumed with `true` and the
    /// results, or `false` and the handled error; it returns the exit status.
    private static func drive(_ L: OpaquePointer, argumentCount: Int32) -> Int32 {
        let base = lua_gettop(L) - argumentCount - 1
        guard let driver = lua_newthread(L) else { return 1 }
        defer { lua_settop(L, base) }
        flowlua_insert(L, base + 1)  // the thread stays below, anchored
        lua_xmove(L, driver, argumentCount + 1)
        var count = argumentCount
        while true {
            var results: Int32 = 0
            let status = lua_resume(driver, L, count, &results)
            if status == LUA_OK {
                return results > 0 ? Int32(clamping: flowlua_tointeger(driver, -1)) : 0
            }
            guard status == LUA_YIELD, results >= 2, lua_checkstack(L, results + 2) != 0 else { return 1 }
            let top = lua_gettop(L)
            lua_xmove(driver, L, results)  // handler, function, arguments
            flowlua_pushcfunction(L, flowlua_call)
            flowlua_insert(L, top + 2)
            let called = flowlua_pcall(L, results - 1, LUA_MULTRET, top + 1)
            lua_pushboolean(L, called == LUA_OK ? 1 : 0)
            flowlua_insert(L, top + 2)
            flowlua_remove(L, top + 1)
            count = lua_gettop(L) - top
            guard lua_checkstack(driver, count) != 0 else { return 1 }
            lua_xmove(L, driver, count)
        }
    }

    /// The run being observed (one lone script per process).
    nonisolated(unsafe) private static var observing: (LuaState, LoadObserver)?

    /// `loaded(chunk, module)` from the driver: the script (module nil) or a module's file.
    private static let loaded: LuaSwiftFunction = { L in
        guard let L, let (state, observer) = observing else { return 0 }
        let stack = LuaStack(L, bridge: nil)
        guard let chunk = stack.bytes(at: 1) else { return 0 }
        let module =
            lua_type(L, 2) == LUA_TSTRING ? stack.bytes(at: 2).map { String(decoding: $0, as: UTF8.self) } : nil
        observer(state, String(decoding: chunk, as: UTF8.self), module, module == nil)
        return 0
    }

    /// What `lua5.4 -v` prints: lua.h's `LUA_COPYRIGHT`.
    static var copyright: String { String(cString: flowlua_copyright()) }
}
