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
            guard let stopped else { return .threads([DebugThreadInfo(id: 1, name: "main")]) }
            lua.threads = [stopped]
            lua.threads = hooks.threads(stoppedOn: stopped)
            return .threads(
                lua.threads.enumerated().map { index, thread in
                    DebugThreadInfo(id: index + 1, name: threadName(thread, main: hooks.mainThread))
                })
        case .stackTrace(let threadID):
            guard stopped != nil else { return .failure("the program is running: pause it first") }
            guard threadID >= 1, threadID <= lua.threads.count else { return .failure("no thread \(threadID)") }
            let index = threadID - 1
            return .frames(
                inspector.frames(of: lua.threads[index]).filter { !$0.isInternal }.map { frame in
                    DebugFrameInfo(
                        id: index * Self.framesPerThread + frame.level + 1, name: frame.name,
                        source: frame.chunk.map { DebugSourceKey(chunk: $0, module: moduleName(ofChunk: $0)) },
                        line: frame.line)
                })
        case .scopes(let frame):
            guard stopped != nil else { return .failure("the program is running: pause it first") }
            let base = Self.scopeBase + (frame - 1) * 4
            return .scopes([
                DebugScopeInfo(name: "Locals", reference: base, expensive: false),
                DebugScopeInfo(name: "Upvalues", reference: base + 1, expensive: false),
                DebugScopeInfo(name: "Varargs", reference: base + 2, expensive: false),
                DebugScopeInfo(name: "Globals", reference: base + 3, expensive: true),
            ])
        case .variables(let reference):
            let runner = stopped ?? thread
            let values: [LuaDebugValue]
            if reference >= Self.scopeBase {
                guard let (owner, level) = place(ofFrame: (reference - Self.scopeBase) / 4 + 1, or: runner) else {
                    return .failure("no such frame")
                }
                switch (reference - Self.scopeBase) % 4 {
                case 0: values = inspector.locals(of: owner, level: level, runner: runner)
                case 1: values = inspector.upvalues(of: owner, level: level, runner: runner)
                case 2: values = inspector.varargs(of: owner, level: level, runner: runner)
                default: values = inspector.globals(runner: runner)
                }
            } else {
                values = inspector.children(of: reference, runner: runner)
            }
            return .variables(values.map(Self.info))
        case .evaluate(let expression, let frame):
            let runner = stopped ?? thread
            do {
                let at: (LuaThread, Int)? = stopped != nil ? frame.flatMap { self.place(ofFrame: $0, or: runner) } : nil
                return .value(Self.info(try inspector.evaluate(expression, frame: at, runner: runner)))
            } catch {
                return .failure((error as? LuaError)?.message ?? "\(error)")
            }
        case .setVariable(let reference, let name, let value):
            let runner = stopped ?? thread
            do {
                if reference >= Self.scopeBase {
                    guard let (owner, level) = place(ofFrame: (reference - Self.scopeBase) / 4 + 1, or: runner) else {
                        return .failure("no such frame")
                    }
                    switch (reference - Self.scopeBase) % 4 {
                    case 0:
                        return .value(
                            Self.info(try inspector.setLocal(name, to: value, of: owner, level: level, runner: runner))
                        )
                    case 1:
                        return .value(
                            Self.info(
                                try inspector.setUpvalue(name, to: value, of: owner, level: level, runner: runner)))
                    case 3:
                        _ = try inspector.evaluate("\(name) = (\(value))", frame: nil, runner: runner)
                        return .value(Self.info(try inspector.evaluate(name, frame: nil, runner: runner)))
                    default:
                        return .failure("varargs cannot be set")
                    }
                }
                return .value(
                    Self.info(
                        try inspector.setField(
                            name, of: reference, to: value, frame: stopped.map { ($0, 0) }, runner: runner)))
            } catch {
                return .failure((error as? LuaError)?.message ?? "\(error)")
            }
        case .source(let key):
            guard let text = sourceText(key) else { return .failure("no source '\(key.chunk)' was loaded") }
            return .text(text)
        case .loadedSources:
            return .sources(lua.breakpoints.sources)
        case .breakpointLocations(let source, let line, let endLine):
            guard let lines = lua.breakpoints.lines(of: source) else { return .lines([]) }
            return .lines(lines.filter { $0 >= line && $0 <= endLine }.sorted())
        case .disconnect:
            lua.breakpoints = BreakpointTable(keepingSourcesOf: lua.breakpoints)
            hooks.setBreakpoints([:])
            hooks.stopsOnCaughtErrors = false
            hooks.stopsOnUncaughtErrors = false
            lua.step = nil
            hooks.step(nil)
            if stopped != nil { lua.resume = .continue }
            return .done
        }
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
