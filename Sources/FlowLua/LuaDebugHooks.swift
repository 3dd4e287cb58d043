import CFlowLua
import CLua
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One Lua thread (the main one or a coroutine), as the debugger sees it from inside a hook.
/// It holds the thread by pointer and is only meaningful while that thread is alive and its
/// state is stopped in a hook or running a job on its executor.
package struct LuaThread: Hashable, @unchecked Sendable {
    let L: OpaquePointer

    init(_ L: OpaquePointer) { self.L = L }

    /// How a debugger names a coroutine: its address, as `tostring` shows a thread.
    package var address: String { "0x" + String(UInt(bitPattern: UnsafeRawPointer(L)), radix: 16) }

    /// Whether it has a call on its stack (a coroutine created but never resumed has none).
    package var hasStack: Bool {
        var ar = lua_Debug()
        return lua_getstack(L, 0, &ar) != 0
    }

    /// How many calls are on this thread's stack (what step over and step out compare).
    package var depth: Int {
        var ar = lua_Debug()
        var level: Int32 = 0
        while lua_getstack(L, level, &ar) != 0 { level += 1 }
        return Int(level)
    }
}

/// What the debugger is told about from inside a hook, on the thread running Lua.
package protocol LuaDebugHandler: AnyObject {
    /// A line is about to run: in a function that holds a breakpoint, or anywhere on the
    /// thread being stepped. `chunk` is the chunk name without Lua's `@`.
    func willRun(line: Int, chunk: String, on thread: LuaThread)
    /// `interrupt(_:)` was asked for, from any thread: the program is at a safe point.
    func interrupted(on thread: LuaThread)
    /// An error was raised; `caught` tells whether a `pcall` in the program catches it.
    func errorRaised(_ message: String, caught: Bool, on thread: LuaThread)
}

/// The debug hooks of one Lua state: no hook while no breakpoint is set; a call and return hook
/// plus the line hook only inside functions whose lines hold a breakpoint; the line hook
/// everywhere on a thread being stepped; and a count hook, set from any thread, to stop at the
/// next instruction (pause, or work waiting for the program's next safe point).
///
/// Everything but `interrupt` runs on the thread running the state's Lua code. One state per
/// process is debugged at a time (the hook finds its handler through `active`).
package final class LuaDebugHooks: @unchecked Sendable {
    nonisolated(unsafe) static var active: LuaDebugHooks?

    package weak var handler: (any LuaDebugHandler)?
    private let main: OpaquePointer
    /// The chunks and lines watched, the stepped thread and each function's fact, in C: the
    /// hook reads them on every call without a trip into Swift.
    private let watch: OpaquePointer
    /// The threads running right now, innermost last (the main thread, then each coroutine
    /// resumed from it); what `interrupt` sets its hook on. Guarded by `runningLock`.
    private var running: [OpaquePointer]
    private let runningLock = HookLock()

    /// Hooks for `state`; nothing is installed until breakpoints are set or stepping starts.
    package init(state: LuaState) {
        main = state.mainThread
        running = [state.mainThread]
        watch = flowlua_watch_new(Self.report)
    }

    deinit {
        flowlua_watch_free(watch)
    }

    /// Makes these the hooks the process reports to.
    package func activate() {
        Self.active = self
        flowlua_watch_activate(watch)
    }

    /// Removes every hook from the threads known and stops reporting.
    package func deactivate() {
        flowlua_watch_clear(watch)
        flowlua_watch_step(watch, nil)
        runningLock.lock()
        for thread in running { flowlua_watch_unhook(thread) }
        runningLock.unlock()
        if Self.active === self {
            Self.active = nil
            flowlua_watch_activate(nil)
        }
    }

    /// The main thread.
    package var mainThread: LuaThread { LuaThread(main) }

    /// Sets the chunks and lines that hold breakpoints (chunk names without `@`), then the
    /// hooks of the running threads to match.
    package func setBreakpoints(_ lines: [String: Set<Int>]) {
        flowlua_watch_clear(watch)
        for (chunk, set) in lines where !set.isEmpty {
            let sorted = set.map { Int32(clamping: $0) }
            _ = sorted.withUnsafeBufferPointer { buffer in
                flowlua_watch_add(watch, "@" + chunk, buffer.baseAddress, Int32(buffer.count))
            }
        }
        refreshRunningThreads()
    }

    /// Reports every line of `thread` (nil: stops doing so).
    package func step(_ thread: LuaThread?) {
        flowlua_watch_step(watch, thread?.L)
        refreshRunningThreads()
        if let thread { flowlua_watch_refresh(watch, thread.L, 0) }
    }

    /// Asks the running thread to stop at its next instruction and call `interrupted`; from
    /// any thread (`lua_sethook` is safe to call asynchronously, as lua.c does on Ctrl-C).
    package func interrupt() {
        runningLock.lock()
        if let thread = running.last { flowlua_watch_interrupt(thread) }
        runningLock.unlock()
    }

    /// A coroutine is about to be resumed: give it this state's hooks (it may have been
    /// created before any was set), and note it as running.
    package func willResume(_ coroutine: LuaThread) {
        flowlua_watch_resuming(watch, coroutine.L)
        runningLock.lock()
        running.append(coroutine.L)
        runningLock.unlock()
    }

    /// The coroutine resumed last has yielded, returned or failed.
    package func didResume() {
        runningLock.lock()
        if running.count > 1 { running.removeLast() }
        runningLock.unlock()
    }

    /// Whether an error no `pcall` of the program catches stops (exception filter `uncaught`).
    package var stopsOnUncaughtErrors = false
    /// Whether an error a `pcall` or `xpcall` of the program catches stops (filter `raised`).
    package var stopsOnCaughtErrors = false

    /// Replaces `coroutine.resume` and `coroutine.wrap` with versions that give each coroutine
    /// these hooks before it runs (one created before the debugger came has none), and `pcall`
    /// and `xpcall` with versions that report a caught error. Run once, on the state's thread.
    /// Coroutines created or resumed from then on are known (weakly), for `suspendedCoroutines`.
    package func installWrappers(in state: LuaState) throws {
        let L = state.mainThread
        try Self.loadWrappers(state, on: L)
        let stack = LuaStack(L, bridge: nil)
        stack.push(function: Self.resumeStarts)
        stack.push(function: Self.resumeEnds)
        stack.push(function: Self.errorCaught)
        try state.protectedCall(argumentCount: 3, resultCount: 1, on: L)
        if listing != LUA_NOREF { luaL_unref(L, flowlua_registryindex(), listing) }
        listing = luaL_ref(L, flowlua_registryindex())
    }

    /// The wrappers' function listing the coroutines known and suspended.
    private var listing: Int32 = LUA_NOREF
    /// The last list handed out, kept from collection until `forgetCoroutines`.
    private var listed: Int32 = LUA_NOREF

    /// The threads of a stop, as a debugger lists them: the one stopped on first, then the
    /// others running (each resumed the next: status `normal`), outermost last, then each
    /// coroutine known to be suspended. Kept alive until `forgetCoroutines()`; on the state's
    /// thread, while it is stopped in a hook.
    package func threads(stoppedOn stopped: LuaThread) -> [LuaThread] {
        runningLock.lock()
        let chain = running
        runningLock.unlock()
        var threads = [stopped]
        for thread in chain.reversed() where thread != stopped.L { threads.append(LuaThread(thread)) }
        guard listing != LUA_NOREF else { return threads }
        let L = stopped.L
        forgetCoroutines()
        guard lua_checkstack(L, 4) != 0 else { return threads }
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(listing))
        guard flowlua_pcall(L, 0, 1, 0) == LUA_OK, lua_type(L, -1) == LUA_TTABLE else {
            flowlua_pop(L, 1)
            return threads
        }
        let count = lua_rawlen(L, -1)
        if count > 0 {
            for index in 1...count {
                lua_rawgeti(L, -1, lua_Integer(index))
                if let coroutine = lua_tothread(L, -1), !threads.contains(LuaThread(coroutine)),
                    LuaThread(coroutine).hasStack
                {
                    threads.append(LuaThread(coroutine))
                }
                flowlua_pop(L, 1)
            }
        }
        listed = luaL_ref(L, flowlua_registryindex())
        return threads
    }

    /// Lets the coroutines last listed be collected.
    package func forgetCoroutines() {
        if listed != LUA_NOREF { luaL_unref(main, flowlua_registryindex(), listed) }
        listed = LUA_NOREF
    }

    private static let resumeStarts: LuaSwiftFunction = { L in
        guard let L, let coroutine = lua_tothread(L, 1) else { return 0 }
        LuaDebugHooks.active?.willResume(LuaThread(coroutine))
        return 0
    }

    private static let resumeEnds: LuaSwiftFunction = { _ in
        LuaDebugHooks.active?.didResume()
        return 0
    }

    /// Whether `L` is a thread of the state these hooks debug (another state of the process,
    /// a host's second context say, is none of the debugger's business).
    package func owns(_ L: OpaquePointer) -> Bool {
        guard lua_checkstack(L, 1) != 0 else { return false }
        lua_rawgeti(L, flowlua_registryindex(), lua_Integer(LUA_RIDX_MAINTHREAD))
        defer { flowlua_pop(L, 1) }
        return lua_tothread(L, -1) == main
    }

    private static let errorCaught: LuaSwiftFunction = { L in
        guard let L, let hooks = LuaDebugHooks.active, hooks.stopsOnCaughtErrors, hooks.owns(L) else { return 0 }
        hooks.handler?.errorRaised(LuaDebugHooks.errorText(L, at: 1), caught: true, on: LuaThread(L))
        return 0
    }

    private static func loadWrappers(_ state: LuaState, on L: OpaquePointer) throws {
        let bytes = Array(wrappers.utf8)
        try bytes.withUnsafeBytes { raw in try state.load(raw, rawChunkName: "=flowpkg:debug", on: L) }
    }

    /// The message handler a protected call from the host uses while a debugger listens: the
    /// error is reported where it was raised, the stack still whole, then the usual traceback.
    static let uncaughtHandler: lua_CFunction = { L in
        guard let L else { return 0 }
        if let hooks = LuaDebugHooks.active, hooks.stopsOnUncaughtErrors, hooks.owns(L) {
            hooks.handler?.errorRaised(errorText(L, at: 1), caught: false, on: LuaThread(L))
        }
        return flowlua_traceback_handler(L)
    }

    /// `uncaught(error)`, for a driver's own message handler (a lone script's): reports the
    /// error where it was raised, as `uncaughtHandler` does for the host's protected calls.
    static let uncaughtReporter: LuaSwiftFunction = { L in
        guard let L, let hooks = LuaDebugHooks.active, hooks.stopsOnUncaughtErrors, hooks.owns(L) else { return 0 }
        hooks.handler?.errorRaised(errorText(L, at: 1), caught: false, on: LuaThread(L))
        return 0
    }

    private static func errorText(_ L: OpaquePointer, at index: Int32) -> String {
        if lua_type(L, index) == LUA_TSTRING, let bytes = LuaStack(L, bridge: nil).bytes(at: index) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return "(error object is a \(String(cString: lua_typename(L, lua_type(L, index)))) value)"
    }

    /// `Embedded/lua/debug_wrappers.lua`.
    private static let wrappers = EmbeddedLua.debugWrappers

    private func refreshRunningThreads() {
        runningLock.lock()
        let threads = running
        runningLock.unlock()
        for thread in threads { flowlua_watch_refresh(watch, thread, 0) }
    }

    /// What the C hook leaves to Swift: a watched line, a line of the stepped thread, or an
    /// interrupt.
    private static let report: flowlua_debug_report = { L, ar in
        guard let L, let ar, let hooks = LuaDebugHooks.active else { return }
        hooks.reported(L, ar)
    }

    private func reported(_ L: OpaquePointer, _ ar: UnsafeMutablePointer<lua_Debug>) {
        switch ar.pointee.event {
        case LUA_HOOKLINE:
            lua_getinfo(L, "S", ar)
            guard let source = ar.pointee.source, source.pointee == CChar(UInt8(ascii: "@")) else { return }
            handler?.willRun(line: Int(ar.pointee.currentline), chunk: String(cString: source + 1), on: LuaThread(L))
        case LUA_HOOKCOUNT:
            handler?.interrupted(on: LuaThread(L))
        default:
            break
        }
    }
}

/// A mutex for the little the hooks share with other threads (FlowLua depends on nothing
/// that has one).
private final class HookLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
