import FlowLiveProtocol
import FlowSupport

/// What a stopped (or running) program shows: threads, frames, scopes, variables, evaluations.
extension DebugAdapterSession {
    func registerInspectionRoutes() {
        on(ThreadsRequest.self) { [unowned self] in threads($0, $1) }
        on(StackTraceRequest.self) { [unowned self] in stackTrace($0, $1) }
        on(ExceptionInfoRequest.self) { [unowned self] in exceptionInfo($0, $1) }
        on(CompletionsRequest.self) { [unowned self] in completions($0, $1) }
        on(ScopesRequest.self) { [unowned self] request, reply in
            forward(.scopes(frame: request.frameId), reply) { engineReply in
                guard case .scopes(let scopes) = engineReply else { return nil }
                return ScopesBody(
                    scopes: scopes.map {
                        .init(
                            name: $0.name, variablesReference: $0.reference, expensive: $0.expensive,
                            presentationHint: $0.name == "Locals" ? "locals" : nil)
                    })
            }
        }
        on(VariablesRequest.self) { [unowned self] request, reply in
            forward(.variables(reference: request.variablesReference), reply) { engineReply in
                guard case .variables(let variables) = engineReply else { return nil }
                return VariablesBody(
                    variables: variables.map {
                        .init(name: $0.name, value: $0.value, type: $0.type, variablesReference: $0.reference)
                    })
            }
        }
        on(EvaluateRequest.self) { [unowned self] request, reply in
            forward(.evaluate(expression: request.expression, frame: request.frameId), reply) { engineReply in
                guard case .value(let value) = engineReply else { return nil }
                return EvaluateBody(result: value.value, type: value.type, variablesReference: value.reference)
            }
        }
        on(SetVariableRequest.self) { [unowned self] request, reply in
            let command = DebugCommand.setVariable(
                reference: request.variablesReference, name: request.name, value: request.value)
            forward(command, reply) { engineReply in
                guard case .value(let value) = engineReply else { return nil }
                return SetVariableBody(value: value.value, type: value.type, variablesReference: value.reference)
            }
        }
    }

    /// The error the thread stopped on (the stop's `text`).
    private func exceptionInfo(_ request: ExceptionInfoRequest, _ reply: Reply<ExceptionInfoRequest>) {
        let (text, raised) = state.withLock { ($0.exceptions[request.threadId], $0.stopsOnRaised) }
        guard let text else { return reply.fail("thread \(request.threadId) is not stopped on an error") }
        reply.succeed(
            ExceptionInfoBody(exceptionId: "error", description: text, breakMode: raised ? "always" : "unhandled"))
    }

    /// The REPL's completions: the engine lists the names that fit what is typed before the
    /// cursor, in the frame when stopped.
    private func completions(_ request: CompletionsRequest, _ reply: Reply<CompletionsRequest>) {
        let typed = String(request.text.prefix(max(0, request.column - 1)))
        forward(.completions(text: typed, frame: request.frameId), reply) { engineReply in
            guard case .variables(let names) = engineReply else { return nil }
            return CompletionsBody(
                targets: names.map { .init(label: $0.name, type: $0.type == "function" ? "function" : "variable") })
        }
    }

    /// Stopped, the engine lists the coroutines of the stop; with no program (or one gone),
    /// the one thread every stop names.
    private func threads(_ request: ThreadsRequest, _ reply: Reply<ThreadsRequest>) {
        let main = ThreadsBody(threads: [.init(id: 1, name: "main")])
        guard let connection = state.withLock({ $0.connection }) else { return reply.succeed(main) }
        connection.send(.threads) { engineReply in
            guard case .threads(let threads) = engineReply else { return reply.succeed(main) }
            reply.succeed(ThreadsBody(threads: threads.map { .init(id: $0.id, name: $0.name) }))
        }
    }

    private func stackTrace(_ request: StackTraceRequest, _ reply: Reply<StackTraceRequest>) {
        forward(.stackTrace(thread: request.threadId), reply) { [unowned self] engineReply in
            guard case .frames(let frames) = engineReply else { return nil }
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
}
