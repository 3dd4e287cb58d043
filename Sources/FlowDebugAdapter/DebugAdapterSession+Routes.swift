import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DebugAdapterSession {
    func registerRoutes() {
        on(InitializeRequest.self) { [unowned self] seq, _ in
            respond(seq, InitializeRequest.command, Capabilities())
        }
        on(LaunchRequest.self) { [unowned self] seq, request in launch(seq, request) }
        on(AttachRequest.self) { [unowned self] seq, request in attach(seq, request) }
        on(SetBreakpointsRequest.self) { [unowned self] seq, request in setBreakpoints(seq, request) }
        on(SetExceptionBreakpointsRequest.self) { [unowned self] seq, request in
            let filters = Set(request.filters)
            forward(
                .setExceptionFilters(raised: filters.contains("raised"), uncaught: filters.contains("uncaught")),
                requestSeq: seq, name: SetExceptionBreakpointsRequest.command
            ) { _ in Empty() }
        }
        on(ConfigurationDoneRequest.self) { [unowned self] seq, _ in
            let stopOnEntry = state.withLock { $0.stopOnEntry }
            forward(
                .configurationDone(stopOnEntry: stopOnEntry), requestSeq: seq, name: ConfigurationDoneRequest.command
            ) { _ in Empty() }
        }
        on(ThreadsRequest.self) { [unowned self] seq, _ in
            // Stopped, the engine lists the coroutines of the stop; with no program (or one
            // gone), the one thread every stop names.
            let main = ThreadsBody(threads: [.init(id: 1, name: "main")])
            guard let connection = state.withLock({ $0.connection }) else {
                return respond(seq, ThreadsRequest.command, main)
            }
            connection.send(.threads) { [weak self] reply in
                guard case .threads(let threads) = reply else {
                    self?.respond(seq, ThreadsRequest.command, main)
                    return
                }
                self?.respond(
                    seq, ThreadsRequest.command, ThreadsBody(threads: threads.map { .init(id: $0.id, name: $0.name) }))
            }
        }
        on(StackTraceRequest.self) { [unowned self] seq, request in
            forward(.stackTrace(thread: request.threadId), requestSeq: seq, name: StackTraceRequest.command) {
                [unowned self] (reply: DebugReply) -> StackFrameBody? in
                guard case .frames(let frames) = reply else { return nil }
                let start = min(request.startFrame ?? 0, frames.count)
                let end = request.levels.map { $0 > 0 ? min(start + $0, frames.count) : frames.count } ?? frames.count
                let shown = frames[start..<end].map { frame in
                    StackFrameBody.Frame(
                        id: frame.id, name: frame.name,
                        source: frame.source.map { key in state.withLock { $0.sourceMap.source(for: key) } },
                        line: frame.line, column: 1)
                }
                return StackFrameBody(stackFrames: shown, totalFrames: frames.count)
            }
        }
        on(ScopesRequest.self) { [unowned self] seq, request in
            forward(.scopes(frame: request.frameId), requestSeq: seq, name: ScopesRequest.command) {
                (reply: DebugReply) -> ScopesBody? in
                guard case .scopes(let scopes) = reply else { return nil }
                return ScopesBody(
                    scopes: scopes.map {
                        .init(
                            name: $0.name, variablesReference: $0.reference, expensive: $0.expensive,
                            presentationHint: $0.name == "Locals" ? "locals" : nil)
                    })
            }
        }
        on(VariablesRequest.self) { [unowned self] seq, request in
            forward(.variables(reference: request.variablesReference), requestSeq: seq, name: VariablesRequest.command)
            { (reply: DebugReply) -> VariablesBody? in
                guard case .variables(let variables) = reply else { return nil }
                return VariablesBody(
                    variables: variables.map {
                        .init(name: $0.name, value: $0.value, type: $0.type, variablesReference: $0.reference)
                    })
            }
        }
        on(ContinueRequest.self) { [unowned self] seq, _ in resume(.continue, seq, ContinueRequest.command) }
        on(NextRequest.self) { [unowned self] seq, _ in resume(.next, seq, NextRequest.command) }
        on(StepInRequest.self) { [unowned self] seq, _ in resume(.stepIn, seq, StepInRequest.command) }
        on(StepOutRequest.self) { [unowned self] seq, _ in resume(.stepOut, seq, StepOutRequest.command) }
        on(PauseRequest.self) { [unowned self] seq, _ in
            forward(.pause, requestSeq: seq, name: PauseRequest.command) { _ in Empty() }
        }
        on(EvaluateRequest.self) { [unowned self] seq, request in
            forward(
                .evaluate(expression: request.expression, frame: request.frameId), requestSeq: seq,
                name: EvaluateRequest.command
            ) { (reply: DebugReply) -> EvaluateBody? in
                guard case .value(let value) = reply else { return nil }
                return EvaluateBody(result: value.value, type: value.type, variablesReference: value.reference)
            }
        }
        on(SetVariableRequest.self) { [unowned self] seq, request in
            forward(
                .setVariable(reference: request.variablesReference, name: request.name, value: request.value),
                requestSeq: seq, name: SetVariableRequest.command
            ) { (reply: DebugReply) -> SetVariableBody? in
                guard case .value(let value) = reply else { return nil }
                return SetVariableBody(value: value.value, type: value.type, variablesReference: value.reference)
            }
        }
        on(SourceRequest.self) { [unowned self] seq, request in source(seq, request) }
        on(LoadedSourcesRequest.self) { [unowned self] seq, _ in
            forward(.loadedSources, requestSeq: seq, name: LoadedSourcesRequest.command) {
                [unowned self] (reply: DebugReply) -> LoadedSourcesBody? in
                guard case .sources(let keys) = reply else { return nil }
                return LoadedSourcesBody(sources: keys.map { key in state.withLock { $0.sourceMap.source(for: key) } })
            }
        }
        on(BreakpointLocationsRequest.self) { [unowned self] seq, request in
            let key: DebugSourceKey
            do {
                key = try sourceKey(request.source)
            } catch {
                return respondError(requestSeq: seq, command: BreakpointLocationsRequest.command, message: "\(error)")
            }
            forward(
                .breakpointLocations(source: key, line: request.line, endLine: request.endLine ?? request.line),
                requestSeq: seq, name: BreakpointLocationsRequest.command
            ) { (reply: DebugReply) -> BreakpointLocationsBody? in
                guard case .lines(let lines) = reply else { return nil }
                return BreakpointLocationsBody(breakpoints: lines.map { .init(line: $0) })
            }
        }
        on(DisconnectRequest.self) { [unowned self] seq, request in
            let connection = state.withLock { $0.connection }
            // The answer goes once the program has gone: an editor may kill the adapter as
            // soon as it reads it, and the program must not outlive it.
            let finish: @Sendable () -> Void = { [self] in
                end(terminating: request.terminateDebuggee ?? true) {
                    self.respond(seq, DisconnectRequest.command, Empty())
                }
            }
            guard let connection else { return finish() }
            connection.send(.disconnect) { _ in finish() }
        }
        on(TerminateRequest.self) { [unowned self] seq, _ in
            state.withLock { $0.process }?.terminate()
            respond(seq, TerminateRequest.command, Empty())
        }
    }

    private func resume(_ kind: DebugResumeKind, _ seq: Int, _ name: String) {
        forward(.resume(kind), requestSeq: seq, name: name) { _ in ContinueBody() }
    }

    /// The engine's key for a DAP source: a file of the program's, or a source reference.
    func sourceKey(_ source: DAPSource) throws -> DebugSourceKey {
        if let reference = source.sourceReference, reference > 0 {
            guard let key = state.withLock({ $0.sourceMap.key(forReference: reference) }) else {
                throw SourceMap.Refusal.noFile("source reference \(reference)")
            }
            return key
        }
        guard let path = source.path else { throw SourceMap.Refusal.noFile("a source without a path") }
        return try state.withLock { state throws(SourceMap.Refusal) in
            try state.sourceMap.key(forPath: path, projectRoot: state.projectRoot)
        }
    }

    private func setBreakpoints(_ seq: Int, _ request: SetBreakpointsRequest) {
        let key: DebugSourceKey
        do {
            key = try sourceKey(request.source)
        } catch {
            return respondError(requestSeq: seq, command: SetBreakpointsRequest.command, message: "\(error)")
        }
        let digest = request.source.path.flatMap { FileManager.default.contents(atPath: $0) }.map {
            DebugProtocol.digest(of: [UInt8]($0))
        }
        let source = request.source
        let specs = state.withLock { state in
            (request.breakpoints ?? []).map { breakpoint in
                defer { state.nextBreakpointID += 1 }
                state.breakpointSources[state.nextBreakpointID] = source
                return DebugBreakpoint(
                    id: state.nextBreakpointID, line: breakpoint.line, condition: breakpoint.condition,
                    hitCondition: breakpoint.hitCondition, logMessage: breakpoint.logMessage, fileDigest: digest)
            }
        }
        forward(.setBreakpoints(source: key, breakpoints: specs), requestSeq: seq, name: SetBreakpointsRequest.command)
        {
            (reply: DebugReply) -> BreakpointsBody? in
            guard case .breakpoints(let states) = reply else { return nil }
            return BreakpointsBody(breakpoints: states.map { Self.dap($0, source: source) })
        }
    }

    private func source(_ seq: Int, _ request: SourceRequest) {
        let reference = request.source?.sourceReference ?? request.sourceReference ?? 0
        if reference == 0, let path = request.source?.path {
            guard let data = FileManager.default.contents(atPath: path) else {
                return respondError(requestSeq: seq, command: SourceRequest.command, message: "\(path): no such file")
            }
            return respond(seq, SourceRequest.command, SourceBody(content: String(decoding: data, as: UTF8.self)))
        }
        guard let key = state.withLock({ $0.sourceMap.key(forReference: reference) }) else {
            return respondError(
                requestSeq: seq, command: SourceRequest.command, message: "no source has reference \(reference)")
        }
        forward(.source(key), requestSeq: seq, name: SourceRequest.command) { (reply: DebugReply) -> SourceBody? in
            guard case .text(let text) = reply else { return nil }
            return SourceBody(content: text)
        }
    }
}
