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
    /// A chunk that holds breakpoints: its name as Lua keeps it (`@` + chunk name, NUL-ended)
    /// and the lines.
    private struct Watched {
        var rawName: [CChar]
        var lines: Set<Int>
        var low: Int
        var high: Int
    }

    nonisolated(unsafe) static var active: LuaDebugHooks?

    package weak var handler: (any LuaDebugHandler)?
    private let main: OpaquePointer
    private var watched: [Watched] = []
    /// The thread whose every line is reported (stepping), if any.
    private var steppedThread: OpaquePointer?
    /// The threads running right now, innermost last (the main thread, then each coroutine
    /// resumed from it); what `interrupt` sets its hook on. Guarded by `runningLock`.
    private var running: [OpaquePointer]
    private let runningLock = HookLock()

    /// Hooks for `state`; nothing is installed until breakpoints are set or stepping starts.
    package init(state: LuaState) {
        main = state.mainThread
        running = [state.mainThread]
    }

    /// Makes these the hooks the process reports to.
    package func activate() {
        Self.active = self
    }

    /// Removes every hook from the threads known and stops reporting.
    package func deactivate() {
        watched = []
        steppedThread = nil
        runningLock.lock()
        for thread in running { lua_sethook(thread, nil, 0, 0) }
        runningLock.unlock()
        if Self.active === self { Self.active = nil }
    }

    /// The main thread.
    package var mainThread: LuaThread { LuaThread(main) }

    /// Sets the chunks and lines that hold breakpoints (chunk names without `@`), then the
    /// hooks of the running threads to match.
    package func setBreakpoints(_ lines: [String: Set<Int>]) {
        holding = [:]
        watched = lines.filter { !$0.value.isEmpty }.map { chunk, lines in
            Watched(rawName: Array(("@" + chunk).utf8CString), lines: lines, low: lines.min()!, high: lines.max()!)
        }
        refreshRunningThreads()
    }

    /// Reports every line of `thread` (nil: stops doing so).
    package func step(_ thread: LuaThread?) {
        steppedThread = thread?.L
        refreshRunningThreads()
        if let thread { lua_sethook(thread.L, Self.hook, Self.lineMask, 0) }
    }

    /// Asks the running thread to stop at its next instruction and call `interrupted`; from
    /// any thread (`lua_sethook` is safe to call asynchronously, as lua.c does on Ctrl-C).
    package func interrupt() {
        runningLock.lock()
        // The count hook alone: a call hook firing first would set the mask again and lose it.
        if let thread = running.last { lua_sethook(thread, Self.hook, LUA_MASKCOUNT, 1) }
        runningLock.unlock()
    }

    /// A coroutine is about to be resumed: give it this state's hooks (it may have been
    /// created before any was set), and note it as running.
    package func willResume(_ coroutine: LuaThread) {
        lua_sethook(coroutine.L, watched.isEmpty && steppedThread == nil ? nil : Self.hook, baseMask, 0)
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
    package func installWrappers(in state: LuaState) throws {
        let L = state.mainThread
        try Self.loadWrappers(state, on: L)
        let stack = LuaStack(L, bridge: nil)
        stack.push(function: Self.resumeStarts)
        stack.push(function: Self.resumeEnds)
        stack.push(function: Self.errorCaught)
        try state.protectedCall(argumentCount: 3, resultCount: 0, on: L)
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

    private static let errorCaught: LuaSwiftFunction = { L in
        guard let L, let hooks = LuaDebugHooks.active, hooks.stopsOnCaughtErrors else { return 0 }
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
        if let hooks = LuaDebugHooks.active, hooks.stopsOnUncaughtErrors {
            hooks.handler?.errorRaised(errorText(L, at: 1), caught: false, on: LuaThread(L))
        }
        return flowlua_traceback_handler(L)
    }

    private static func errorText(_ L: OpaquePointer, at index: Int32) -> String {
        if lua_type(L, index) == LUA_TSTRING, let bytes = LuaStack(L, bridge: nil).bytes(at: index) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return "(error object is a \(String(cString: lua_typename(L, lua_type(L, index)))) value)"
    }

    private static let wrappers = """
        local willResume, didResume, raised = ...
        local resume, create, xpcall0, error0 = coroutine.resume, coroutine.create, xpcall, error
        local pack, unpack, type = table.pack, table.unpack, type
        local function finish(...) didResume() return ... end
        coroutine.resume = function(co, ...)
          if type(co) == "thread" then willResume(co) else return resume(co, ...) end
          return finish(resume(co, ...))
        end
        coroutine.wrap = function(f)
          local co = create(f)
          return function(...)
            willResume(co)
            local r = pack(resume(co, ...))
            didResume()
            if r[1] then return unpack(r, 2, r.n) end
            if type(r[2]) == "string" then error0(r[2], 2) end
            error0(r[2], 0)
          end
        end
        local function report(e) raised(e) return e end
        pcall = function(f, ...) return xpcall0(f, report, ...) end
        xpcall = function(f, handler, ...)
          return xpcall0(f, function(e) raised(e) return handler(e) end, ...)
        end
        """

    private var baseMask: Int32 { watched.isEmpty ? 0 : (LUA_MASKCALL | LUA_MASKRET) }
    private static let lineMask = LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE

    private func refreshRunningThreads() {
        runningLock.lock()
        let threads = running
        runningLock.unlock()
        for thread in threads { refresh(thread, frameLevel: 0) }
    }

    /// Sets `thread`'s mask for the function at `frameLevel`: the line hook when it holds a
    /// breakpoint or the thread is stepped, else the call hook alone (or none at all).
    private func refresh(_ thread: OpaquePointer, frameLevel: Int32) {
        if thread == steppedThread { return lua_sethook(thread, Self.hook, Self.lineMask, 0) }
        if watched.isEmpty { return lua_sethook(thread, nil, 0, 0) }
        var ar = lua_Debug()
        let wantsLines = lua_getstack(thread, frameLevel, &ar) != 0 && holdsBreakpoint(thread, &ar)
        lua_sethook(thread, Self.hook, wantsLines ? Self.lineMask : baseMask, 0)
    }

    /// A function, as a hook sees it: its chunk name's address and its first and last lines.
    private struct FunctionKey: Hashable {
        var source: UnsafeRawPointer
        var first: Int32
        var last: Int32
    }

    /// Whether each function met so far holds a breakpoint among its own lines (not those of
    /// the functions nested in it): read once from its `activelines`, then looked up.
    private var holding: [FunctionKey: Bool] = [:]

    /// Whether the function `ar` stands for (from a hook or `lua_getstack`) holds a breakpoint.
    private func holdsBreakpoint(_ L: OpaquePointer, _ ar: inout lua_Debug) -> Bool {
        lua_getinfo(L, "S", &ar)
        guard let source = ar.source else { return false }
        let first = Int(ar.linedefined), last = ar.lastlinedefined <= 0 ? Int.max : Int(ar.lastlinedefined)
        for entry in watched where entry.high >= first && entry.low <= last {
            guard entry.rawName.withUnsafeBufferPointer({ strcmp($0.baseAddress!, source) }) == 0 else { continue }
            let key = FunctionKey(source: UnsafeRawPointer(source), first: ar.linedefined, last: ar.lastlinedefined)
            if let known = holding[key] { return known }
            var holds = false
            lua_getinfo(L, "L", &ar)
            if lua_type(L, -1) == LUA_TTABLE {
                holds = entry.lines.contains { line in
                    defer { flowlua_pop(L, 1) }
                    return lua_rawgeti(L, -1, lua_Integer(line)) != LUA_TNIL
                }
            }
            flowlua_pop(L, 1)
            holding[key] = holds
            return holds
        }
        return false
    }

    fileprivate func handle(_ L: OpaquePointer, _ ar: UnsafeMutablePointer<lua_Debug>) {
        switch ar.pointee.event {
        case LUA_HOOKCALL, LUA_HOOKTAILCALL:
            if L == steppedThread { return }
            let wantsLines = holdsBreakpoint(L, &ar.pointee)
            lua_sethook(L, Self.hook, wantsLines ? Self.lineMask : baseMask, 0)
        case LUA_HOOKRET:
            // The caller runs again next: its own mask.
            if L != steppedThread { refresh(L, frameLevel: 1) }
        case LUA_HOOKLINE:
            lua_getinfo(L, "S", &ar.pointee)
            guard let source = ar.pointee.source else { return }
            let line = Int(ar.pointee.currentline)
            if L != steppedThread {
                let name = source
                guard
                    watched.contains(where: { entry in
                        entry.lines.contains(line)
                            && entry.rawName.withUnsafeBufferPointer { strcmp($0.baseAddress!, name) } == 0
                    })
                else { return }
            }
            guard source.pointee == CChar(UInt8(ascii: "@")) else { return }
            handler?.willRun(line: line, chunk: String(cString: source + 1), on: LuaThread(L))
        case LUA_HOOKCOUNT:
            refresh(L, frameLevel: 0)
            handler?.interrupted(on: LuaThread(L))
        default:
            break
        }
    }

    private static let hook: lua_Hook = { L, ar in
        guard let L, let ar, let hooks = LuaDebugHooks.active else { return }
        hooks.handle(L, ar)
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
