import FlowLiveProtocol

extension DebugAdapterSession {
    /// What the engine sent on its own (replies go to the request waiting for them): each
    /// becomes the DAP event an editor knows.
    func engineSent(_ message: DebugMessage) {
        switch message {
        case .reply, .ready:
            break
        case .stopped(let reason, let thread, let text, let breakpoints):
            state.withLock { $0.exceptions = reason == "exception" ? [thread: text ?? ""] : [:] }
            send(
                StoppedEvent(
                    reason: reason, threadId: thread, description: text.map { "Error: " + $0 } ?? reason, text: text,
                    hitBreakpointIds: breakpoints.isEmpty ? nil : breakpoints))
        case .output(let text, let category):
            send(OutputEvent(category: category, output: text))
        case .loadedSource(let key):
            let source = state.withLock { $0.sourceMap.source(for: key) }
            send(LoadedSourceEvent(source: source))
        case .breakpointChanged(let breakpoint):
            let source = state.withLock { state in
                breakpoint.source.map { state.sourceMap.source(for: $0) } ?? state.breakpointSources[breakpoint.id]
            }
            send(BreakpointEvent(breakpoint: Self.dap(breakpoint, source: source)))
        }
    }

    static func dap(_ state: DebugBreakpointState, source: DAPSource?) -> DAPBreakpoint {
        DAPBreakpoint(id: state.id, verified: state.verified, line: state.line, message: state.message, source: source)
    }
}
