import FlowLiveProtocol
import FlowLoader
import FlowPackage
import FlowRuntime

/// The requests the engine carries out on the context's thread.
extension DebugEngine {
    /// Scope references sit above every value handle: kind (0 locals, 1 upvalues, 2 varargs,
    /// 3 globals) and frame level packed in.
    static let scopeBase = 1_000_000_000

    func handle(_ command: DebugCommand, on thread: LuaThread) -> DebugReply {
        guard let hooks = lua.hooks, let inspector = lua.inspector else {
            return .failure("the debugger is not attached")
        }
        let stopped = lua.stoppedThread
        switch command {
        case .setBreakpoints(let source, let breakpoints):
            let states = lua.breakpoints.set(breakpoints, in: source)
            hooks.setBreakpoints(lua.breakpoints.linesByChunk)
            return .breakpoints(states)
        case .setFunctionBreakpoints(let breakpoints):
            let states = lua.breakpoints.setFunctions(breakpoints)
            hooks.setBreakpoints(lua.breakpoints.linesByChunk)
            return .breakpoints(states)
        case .setExceptionFilters(let raised, let uncaught):
            hooks.stopsOnCaughtErrors = raised
            hooks.stopsOnUncaughtErrors = uncaught || raised
            return .done
        case .configurationDone(let stopOnEntry):
            if stopOnEntry { startStepping(.entry, thread: hooks.mainThread, depth: 0) }
            shared.withLock { $0.configured = true }
            return .done
        case .resume(let kind):
            guard stopped != nil else { return .failure("the program is running") }
            lua.resume = kind
            return .done
        case .pause:
            return .done  // answered on the transport's thread
        case .threads:
            return threads(hooks: hooks)
        case .stackTrace(let threadID):
            return stackTrace(threadID, hooks: hooks, inspector: inspector)
        case .scopes(let frame):
            guard stopped != nil else { return .failure("the program is running: pause it first") }
            return .scopes(Self.scopes(ofFrame: frame))
        case .variables(let reference):
            return variables(reference, runner: stopped ?? thread, inspector: inspector)
        case .evaluate(let expression, let frame):
            return evaluate(expression, frame: frame, runner: stopped ?? thread, inspector: inspector)
        case .setVariable(let reference, let name, let value):
            return setVariable(reference, name: name, value: value, runner: stopped ?? thread, inspector: inspector)
        case .completions(let text, let frame):
            return completions(text, frame: frame, runner: stopped ?? thread, inspector: inspector)
        case .source(let key):
            guard let text = sourceText(key) else { return .failure("no source '\(key.chunk)' was loaded") }
            return .text(text)
        case .loadedSources:
            return .sources(lua.breakpoints.sources)
        case .breakpointLocations(let source, let line, let endLine):
            guard let lines = lua.breakpoints.lines(of: source) else { return .lines([]) }
            return .lines(lines.filter { $0 >= line && $0 <= endLine }.sorted())
        case .disconnect:
            forgetDebugger(hooks: hooks)
            return .done
        }
    }

    /// The debugger leaves: every breakpoint goes, and a stopped program runs on.
    private func forgetDebugger(hooks: LuaDebugHooks) {
        lua.breakpoints = BreakpointTable(keepingSourcesOf: lua.breakpoints)
        hooks.setBreakpoints([:])
        hooks.stopsOnCaughtErrors = false
        hooks.stopsOnUncaughtErrors = false
        lua.step = nil
        hooks.step(nil)
        if lua.stoppedThread != nil { lua.resume = .continue }
    }

    /// The threads of this stop (running: the main one), each with the id it keeps for as
    /// long as it lives: the main thread is always 1.
    private func threads(hooks: LuaDebugHooks) -> DebugReply {
        guard let stopped = lua.stoppedThread else { return .threads([DebugThreadInfo(id: 1, name: "main")]) }
        lua.threads = hooks.threads(stoppedOn: stopped)
        return .threads(
            lua.threads.map { DebugThreadInfo(id: threadID(of: $0), name: threadName($0, main: hooks.mainThread)) }
                .sorted { $0.id < $1.id })
    }

    private func stackTrace(_ threadID: Int, hooks: LuaDebugHooks, inspector: LuaDebugInspector) -> DebugReply {
        guard let stopped = lua.stoppedThread else { return .failure("the program is running: pause it first") }
        var index = lua.threads.firstIndex { self.threadID(of: $0) == threadID }
        if index == nil {
            // Asked before `threads` listed this stop's threads (the main thread, say, while a
            // coroutine stopped).
            lua.threads = hooks.threads(stoppedOn: stopped)
            index = lua.threads.firstIndex { self.threadID(of: $0) == threadID }
        }
        guard let index else { return .failure("no thread \(threadID)") }
        return .frames(
            inspector.frames(of: lua.threads[index]).filter { !$0.isInternal }.map { frame in
                DebugFrameInfo(
                    id: index * Self.framesPerThread + frame.level + 1, name: frame.name,
                    source: frame.chunk.map { DebugSourceKey(chunk: $0, module: moduleName(ofChunk: $0)) },
                    line: frame.line)
            })
    }

    /// A thread's id: 1 for the main thread, the next free number for a coroutine first seen.
    func threadID(of thread: LuaThread) -> Int {
        if let hooks = lua.hooks, thread == hooks.mainThread { return 1 }
        if let id = lua.threadIDs[thread] { return id }
        lua.nextThreadID += 1
        lua.threadIDs[thread] = lua.nextThreadID
        return lua.nextThreadID
    }

    /// Frame ids count the frames of each thread of a stop in a block of their own: thread
    /// index × this + level + 1 (the stopped thread's frames are 1, 2, 3…).
    static let framesPerThread = 100_000

    /// The thread and level a frame id names in this stop (`runner`'s own when not stopped).
    func place(ofFrame id: Int, or runner: LuaThread) -> (LuaThread, Int)? {
        let index = (id - 1) / Self.framesPerThread, level = (id - 1) % Self.framesPerThread
        guard id >= 1 else { return nil }
        if lua.stoppedThread == nil { return index == 0 ? (runner, level) : nil }
        guard index < lua.threads.count else { return nil }
        return (lua.threads[index], level)
    }

    func threadName(_ thread: LuaThread, main: LuaThread) -> String {
        if thread == main { return "main" }
        return "coroutine \(thread.address)"
    }

    static func info(_ value: LuaDebugValue) -> DebugVariableInfo {
        DebugVariableInfo(name: value.name, value: value.value, type: value.type, reference: value.handle)
    }

    func moduleName(ofChunk chunk: String) -> String? {
        lua.breakpoints.sources.first { $0.chunk == chunk }?.module
    }

    func sourceText(_ key: DebugSourceKey) -> String? {
        let loaded = lua.breakpoints.loadedSource(matching: key) ?? key
        guard let bytes = lua.sourceBytes[loaded.chunk] else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
