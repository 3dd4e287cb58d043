import FlowLiveProtocol
import FlowLoader
import FlowPackage
import FlowRuntime
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The debugger's engine inside the program: breakpoints, stepping, pause, variables and
/// evaluation over FlowLua's hooks, driven by `DebugRequest`s from a transport.
///
/// Requests arrive on the transport's thread and wait in `pending`; they are carried out on
/// the context's own thread: in the stop loop while the program is stopped, at its next safe
/// point (a count hook) while it runs, or as a job on its executor while it is idle.
///
/// `@unchecked`: the Lua-side state (`lua`) is touched only on the context's thread; what other
/// threads share is in `shared`.
package final class DebugEngine: LuaDebugHandler, @unchecked Sendable {
    struct Shared {
        var pending: [DebugRequest] = []
        var pauseRequested = false
        var configured = false
        var closed = false
        var stopped = false
        var nudging = false
    }

    enum StepMode {
        case entry, next, stepIn, stepOut
    }

    /// What only the context's thread touches.
    struct LuaSide {
        var hooks: LuaDebugHooks?
        var inspector: LuaDebugInspector?
        var state: LuaState?
        var breakpoints = BreakpointTable()
        var step: (mode: StepMode, thread: LuaThread, depth: Int)?
        /// The thread stopped on, while stopped.
        var stoppedThread: LuaThread?
        /// The threads of this stop, as `threads` listed them: the stopped one first.
        var threads: [LuaThread] = []
        /// Each coroutine's id, kept while the program runs (the main thread's is 1).
        var threadIDs: [LuaThread: Int] = [:]
        var nextThreadID = 1
        var resume: DebugResumeKind?
        /// Whether `coroutine` and `pcall` are wrapped yet (at the first request, for a program
        /// a debugger may attach to later).
        var wrappersInstalled = false
        /// The code of each module loaded, by chunk name (what `source` answers).
        var sourceBytes: [String: [UInt8]] = [:]
        /// How deep the engine is in Lua of its own (an evaluation, a condition, a log
        /// message): an error there is the debugger's answer, never a stop.
        var ownLua = 0
    }

    let context: any DebugHost
    let transport: any DebugTransport
    let shared = Awaited(Shared())
    var lua = LuaSide()
    /// How long a stop waits for a debugger that has gone silent before the program runs on
    /// (one that has gone away is noticed at once: its channel closes, or `flowpkg serve`'s
    /// relay, whose streams carry a heartbeat, says so).
    package var vanishedTimeout: TimeInterval = 600

    package init(context: any DebugHost, transport: any DebugTransport) {
        self.context = context
        self.transport = transport
    }

    /// Installs the hooks (none active until a breakpoint is set) and reports loads. With
    /// `wrappingNow` false, `coroutine` and `pcall` are left alone until the first request.
    package func attach(wrappingNow: Bool = true) throws {
        try context.withDebugState { state in
            let hooks = LuaDebugHooks(state: state)
            hooks.handler = self
            hooks.activate()
            if wrappingNow {
                try hooks.installWrappers(in: state)
                self.lua.wrappersInstalled = true
            }
            self.lua.hooks = hooks
            self.lua.inspector = LuaDebugInspector(state: state)
            self.lua.state = state
        }
        context.observeLoadedCode { [weak self] chunk, module, bytes in
            self?.moduleLoaded(DebugSourceKey(chunk: chunk, module: module), bytes: bytes)
        }
    }

    /// Waits until the debugger has sent `configurationDone` (or gone), at most `timeout`.
    package func waitForConfiguration(timeout: TimeInterval) {
        _ = shared.wait(until: { $0.configured || $0.closed ? true : nil }, deadline: Date() + timeout)
    }

    /// Carries out the debugger's requests on `thread`, the one running the program's Lua code
    /// (for a host that is never idle), until it has sent `configurationDone` or gone, at most
    /// `timeout`.
    package func serveUntilConfigured(timeout: TimeInterval, on thread: LuaThread) {
        let deadline = Date() + timeout
        while true {
            let ready = shared.wait(
                until: { shared -> Bool? in
                    if shared.configured || shared.closed { return true }
                    return shared.pending.isEmpty ? nil : false
                }, deadline: deadline)
            guard ready == false else { return }
            drainPending(on: thread)
        }
    }

    /// The main thread of the state debugged, once attached.
    package var mainThread: LuaThread? { lua.hooks?.mainThread }

    /// Removes every hook; the program runs on as if no debugger had come.
    package func detach() {
        try? context.withDebugState { _ in
            self.lua.hooks?.deactivate()
            self.lua.breakpoints = BreakpointTable()
        }
    }

    // MARK: From the transport's thread

    /// A request from the debugger.
    package func receive(_ request: DebugRequest) {
        shared.withLock { $0.closed = false }
        switch request.command {
        case .pause:
            shared.withLock { $0.pauseRequested = true }
            transport.send(.reply(seq: request.seq, .done))
            nudge()
            return
        case .threads where !shared.withLock({ $0.stopped }):
            transport.send(.reply(seq: request.seq, .threads([DebugThreadInfo(id: 1, name: "main")])))
            return
        default:
            break
        }
        let stopped = shared.withLock { shared in
            shared.pending.append(request)
            return shared.stopped
        }
        guard !stopped else { return }
        // Running: at the next safe point; idle: as a job on the context's thread.
        nudge()
        context.queueDebugJob { [weak self] _ in
            guard let self, let main = self.lua.hooks?.mainThread else { return }
            self.drainPending(on: main)
        }
    }

    /// The debugger has gone: no more stops, and a stopped program runs on without
    /// breakpoints. A debugger that comes again (`transportOpened`) starts afresh.
    package func transportClosed() {
        shared.withLock { $0.closed = true }
        context.queueDebugJob { [weak self] _ in
            guard let self else { return }
            self.lua.breakpoints = BreakpointTable(keepingSourcesOf: self.lua.breakpoints)
            self.lua.hooks?.setBreakpoints([:])
            self.lua.step = nil
            self.lua.hooks?.step(nil)
        }
    }

    /// Asks the running program for a safe point, again every few milliseconds while work
    /// waits (an interrupt can be lost to the program setting its own hooks at that moment).
    private func nudge() {
        let start = shared.withLock { shared -> Bool in
            defer { shared.nudging = true }
            return !shared.nudging
        }
        lua.hooks?.interrupt()
        guard start else { return }
        DetachedThread.start(name: "flowpkg.debug.nudge") { [self] in
            while true {
                let done = shared.wait(
                    until: { shared -> Bool? in
                        let done = shared.stopped || shared.closed || (shared.pending.isEmpty && !shared.pauseRequested)
                        if done { shared.nudging = false }
                        return done ? true : nil
                    }, deadline: Date() + 0.005)
                if done != nil { return }
                lua.hooks?.interrupt()
            }
        }
    }

    // MARK: On the context's thread (LuaDebugHandler)

    package func willRun(line: Int, chunk: String, on thread: LuaThread) {
        // The line's breakpoints first: a log point logs, and a hit counts, each time the line
        // runs, a step arriving on it included.
        let (stopping, onFunction) = breakpointsStopping(line: line, chunk: chunk, on: thread)
        if !stopping.isEmpty {
            let reason = onFunction ? "function breakpoint" : "breakpoint"
            return stop(reason: reason, thread: thread, text: nil, breakpoints: stopping)
        }
        guard let step = lua.step, step.thread == thread else { return }
        let depth = thread.depth
        let arrived: Bool
        switch step.mode {
        case .entry, .stepIn: arrived = true
        case .next: arrived = depth <= step.depth
        case .stepOut: arrived = depth < step.depth
        }
        if arrived { stop(reason: step.mode == .entry ? "entry" : "step", thread: thread, text: nil, breakpoints: []) }
    }

    /// The breakpoints at `line` whose condition and hit count say stop (a log point writes
    /// its message instead), and whether one of them is a function's.
    private func breakpointsStopping(line: Int, chunk: String, on thread: LuaThread) -> ([Int], Bool) {
        guard let inspector = lua.inspector else { return ([], false) }
        var stopping: [Int] = []
        var onFunction = false
        for breakpoint in lua.breakpoints.hits(chunk: chunk, line: line) {
            if let condition = breakpoint.condition, !condition.isEmpty,
                !ownLua({ inspector.isTrue(condition, frame: (thread, 0), runner: thread) })
            {
                continue
            }
            guard lua.breakpoints.countHit(breakpoint) else { continue }
            if let message = breakpoint.logMessage {
                let text = ownLua { inspector.interpolate(message, frame: (thread, 0), runner: thread) }
                transport.send(.output(text + "\n", category: "console"))
                continue
            }
            stopping.append(breakpoint.id)
            onFunction = onFunction || breakpoint.functionName != nil
        }
        return (stopping, onFunction)
    }

    package func interrupted(on thread: LuaThread) {
        let pause = shared.withLock { shared in
            let pause = shared.pauseRequested
            shared.pauseRequested = false
            return pause
        }
        drainPending(on: thread)
        if pause { stop(reason: "pause", thread: thread, text: nil, breakpoints: []) }
    }

    package func errorRaised(_ message: String, caught: Bool, on thread: LuaThread) {
        guard lua.ownLua == 0 else { return }
        stop(reason: "exception", thread: thread, text: message, breakpoints: [])
    }

    /// Carries out the requests waiting, on `thread` (running or idle, not stopped).
    func drainPending(on thread: LuaThread) {
        if !lua.wrappersInstalled, let state = lua.state {
            lua.wrappersInstalled = true
            try? lua.hooks?.installWrappers(in: state)
        }
        let requests = shared.withLock { shared in
            let requests = shared.pending
            shared.pending = []
            return requests
        }
        for request in requests {
            transport.send(.reply(seq: request.seq, ownLua { handle(request.command, on: thread) }))
        }
    }

    /// Runs `body`, the engine's own work with the program's Lua, with no exception stop.
    func ownLua<T>(_ body: () -> T) -> T {
        lua.ownLua += 1
        defer { lua.ownLua -= 1 }
        return body()
    }

    /// Stops here: tells the debugger, then answers its requests on this thread until it says
    /// how to go on (or goes away).
    func stop(reason: String, thread: LuaThread, text: String?, breakpoints: [Int]) {
        guard shared.withLock({ !$0.closed && !$0.stopped }) else { return }
        shared.withLock { $0.stopped = true }
        lua.step = nil
        lua.hooks?.step(nil)
        lua.stoppedThread = thread
        lua.threads = [thread]
        lua.resume = nil
        transport.send(.stopped(reason: reason, thread: threadID(of: thread), text: text, breakpoints: breakpoints))
        while lua.resume == nil {
            let next = shared.wait(
                until: { shared -> DebugRequest?? in
                    if !shared.pending.isEmpty { return .some(shared.pending.removeFirst()) }
                    return shared.closed ? .some(nil) : nil
                }, deadline: Date() + vanishedTimeout)
            guard let request = next.flatMap({ $0 }) else {
                // The debugger has gone (or said nothing for too long): run on without it.
                lua.resume = .continue
                lua.breakpoints = BreakpointTable()
                lua.hooks?.setBreakpoints([:])
                break
            }
            transport.send(.reply(seq: request.seq, ownLua { handle(request.command, on: thread) }))
        }
        lua.inspector?.forgetHandles()
        lua.hooks?.forgetCoroutines()
        lua.stoppedThread = nil
        lua.threads = []
        // A pause asked for once the reply to `continue` went out is for the run that follows;
        // a request that came while the stop was ending (its sender saw the program stopped, so
        // nothing nudges it) is carried out now, before the program goes on.
        let (pauseWaits, stranded) = shared.withLock { shared in
            shared.stopped = false
            return (shared.pauseRequested, !shared.pending.isEmpty)
        }
        if pauseWaits { nudge() }
        let depth = thread.depth
        switch lua.resume ?? .continue {
        case .continue: break
        case .next: startStepping(.next, thread: thread, depth: depth)
        case .stepIn: startStepping(.stepIn, thread: thread, depth: depth)
        case .stepOut: startStepping(.stepOut, thread: thread, depth: depth)
        }
        if stranded { drainPending(on: thread) }
    }

    func startStepping(_ mode: StepMode, thread: LuaThread, depth: Int) {
        lua.step = (mode, thread, depth)
        lua.hooks?.step(thread)
    }

    /// A chunk the host loads by itself, not as a module (a spec file the test runner loads):
    /// its breakpoints are checked as a module's are. From any thread, before the chunk runs.
    package func announce(chunk: String, bytes: [UInt8]) {
        try? context.withDebugState { _ in self.moduleLoaded(DebugSourceKey(chunk: chunk), bytes: bytes) }
    }

    /// A module has loaded: its breakpoints are checked and the hooks set for them.
    func moduleLoaded(_ source: DebugSourceKey, bytes: [UInt8]) {
        lua.sourceBytes[source.chunk] = bytes
        transport.send(.loadedSource(source))
        let facts = lua.state.flatMap { try? $0.lineFacts(ofChunk: bytes, chunkName: source.chunk) }
        let loaded = BreakpointTable.Loaded(
            source: source, lines: facts?.lines, digest: DebugProtocol.digest(of: bytes),
            functions: facts.map { FunctionEntries.find(in: bytes, functions: $0.functions) } ?? [])
        for state in lua.breakpoints.loaded(loaded) {
            transport.send(.breakpointChanged(state))
        }
        lua.hooks?.setBreakpoints(lua.breakpoints.linesByChunk)
    }
}
