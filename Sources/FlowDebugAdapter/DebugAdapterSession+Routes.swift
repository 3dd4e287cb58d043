import FlowLiveProtocol
import FlowSupport

/// The requests the session answers, each registered by its type (`on(StackTraceRequest.self)`),
/// which names its command and its answer's body: no command is spelt here or in a handler.
extension DebugAdapterSession {
    func registerRoutes() {
        on(InitializeRequest.self) { _, reply in reply.succeed(Capabilities()) }
        on(LaunchRequest.self) { [unowned self] in launch($0, $1) }
        on(AttachRequest.self) { [unowned self] in attach($0, $1) }
        on(ConfigurationDoneRequest.self) { [unowned self] _, reply in
            forward(.configurationDone(stopOnEntry: state.withLock { $0.stopOnEntry }), reply)
        }
        on(DisconnectRequest.self) { [unowned self] in disconnect($0, $1) }
        on(TerminateRequest.self) { [unowned self] _, reply in
            state.withLock { $0.process }?.terminate()
            reply.succeed(Empty())
        }
        registerBreakpointRoutes()
        registerExecutionRoutes()
        registerInspectionRoutes()
    }

    private func registerBreakpointRoutes() {
        on(SetBreakpointsRequest.self) { [unowned self] in setBreakpoints($0, $1) }
        on(SetFunctionBreakpointsRequest.self) { [unowned self] in setFunctionBreakpoints($0, $1) }
        on(SetExceptionBreakpointsRequest.self) { [unowned self] request, reply in
            let filters = Set(request.filters)
            state.withLock { $0.stopsOnRaised = filters.contains("raised") }
            forward(
                .setExceptionFilters(raised: filters.contains("raised"), uncaught: filters.contains("uncaught")), reply)
        }
        on(BreakpointLocationsRequest.self) { [unowned self] in breakpointLocations($0, $1) }
        on(SourceRequest.self) { [unowned self] in source($0, $1) }
        on(LoadedSourcesRequest.self) { [unowned self] in loadedSources($0, $1) }
    }

    private func registerExecutionRoutes() {
        on(NextRequest.self) { [unowned self] _, reply in forward(.resume(.next), reply) }
        on(StepInRequest.self) { [unowned self] _, reply in forward(.resume(.stepIn), reply) }
        on(StepOutRequest.self) { [unowned self] _, reply in forward(.resume(.stepOut), reply) }
        on(PauseRequest.self) { [unowned self] _, reply in forward(.pause, reply) }
        on(ContinueRequest.self) { [unowned self] _, reply in forward(.resume(.continue), reply) { _ in ContinueBody() }
        }
    }

    /// `disconnect`: answered once the program has gone (an editor may kill the adapter as soon
    /// as it reads the answer, and the program must not outlive it).
    private func disconnect(_ request: DisconnectRequest, _ reply: Reply<DisconnectRequest>) {
        let connection = state.withLock { $0.connection }
        let finish: @Sendable () -> Void = { [self] in
            end(terminating: request.terminateDebuggee ?? true) { reply.succeed(Empty()) }
        }
        guard let connection else { return finish() }
        connection.send(.disconnect) { _ in finish() }
    }
}
