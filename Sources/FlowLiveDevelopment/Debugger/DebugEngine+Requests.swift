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
        case .pause, .threads:
            return .done  // answered on the transport's thread
        case .stackTrace:
            guard let stopped else { return .failure("the program is running: pause it first") }
            return .frames(
                inspector.frames(of: stopped).filter { !$0.isInternal }.map { frame in
                    DebugFrameInfo(
                        id: frame.level + 1, name: frame.name,
                        source: frame.chunk.map { DebugSourceKey(chunk: $0, module: moduleName(ofChunk: $0)) },
                        line: frame.line)
                })
        case .scopes(let frame):
            guard stopped != nil else { return .failure("the program is running: pause it first") }
            let level = frame - 1
            let base = Self.scopeBase + level * 4
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
                let level = (reference - Self.scopeBase) / 4
                switch (reference - Self.scopeBase) % 4 {
                case 0: values = inspector.locals(of: runner, level: level, runner: runner)
                case 1: values = inspector.upvalues(of: runner, level: level, runner: runner)
                case 2: values = inspector.varargs(of: runner, level: level, runner: runner)
                default: values = inspector.globals(runner: runner)
                }
            } else {
                values = inspector.children(of: reference, runner: runner)
            }
            return .variables(values.map(Self.info))
        case .evaluate(let expression, let frame):
            let runner = stopped ?? thread
            do {
                let place = stopped != nil ? frame.map { (runner, $0 - 1) } : nil
                return .value(Self.info(try inspector.evaluate(expression, frame: place, runner: runner)))
            } catch {
                return .failure((error as? LuaError)?.message ?? "\(error)")
            }
        case .setVariable(let reference, let name, let value):
            let runner = stopped ?? thread
            do {
                if reference >= Self.scopeBase {
                    let level = (reference - Self.scopeBase) / 4
                    switch (reference - Self.scopeBase) % 4 {
                    case 0:
                        return .value(
                            Self.info(try inspector.setLocal(name, to: value, of: runner, level: level, runner: runner))
                        )
                    case 1:
                        return .value(
                            Self.info(
                                try inspector.setUpvalue(name, to: value, of: runner, level: level, runner: runner)))
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
