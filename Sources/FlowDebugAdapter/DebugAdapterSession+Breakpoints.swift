import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Breakpoints and the sources they are set in: the editor's files and the program's chunks.
extension DebugAdapterSession {
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

    func setBreakpoints(_ request: SetBreakpointsRequest, _ reply: Reply<SetBreakpointsRequest>) {
        let key: DebugSourceKey
        do {
            key = try sourceKey(request.source)
        } catch {
            return reply.fail("\(error)")
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
        forward(.setBreakpoints(source: key, breakpoints: specs), reply) { engineReply in
            guard case .breakpoints(let states) = engineReply else { return nil }
            return BreakpointsBody(breakpoints: states.map { Self.dap($0, source: source) })
        }
    }

    /// Function breakpoints: each stops on the first line of a function defined with its name,
    /// in a module loaded now or later (the engine finds them).
    func setFunctionBreakpoints(_ request: SetFunctionBreakpointsRequest, _ reply: Reply<SetFunctionBreakpointsRequest>)
    {
        let specs = state.withLock { state in
            request.breakpoints.map { breakpoint in
                defer { state.nextBreakpointID += 1 }
                return DebugFunctionBreakpoint(
                    id: state.nextBreakpointID, name: breakpoint.name, condition: breakpoint.condition,
                    hitCondition: breakpoint.hitCondition)
            }
        }
        forward(.setFunctionBreakpoints(specs), reply) { [unowned self] engineReply in
            guard case .breakpoints(let states) = engineReply else { return nil }
            return BreakpointsBody(
                breakpoints: states.map { breakpoint in
                    let source = breakpoint.source.map { key in state.withLock { $0.sourceMap.source(for: key) } }
                    return Self.dap(breakpoint, source: source)
                })
        }
    }

    func breakpointLocations(_ request: BreakpointLocationsRequest, _ reply: Reply<BreakpointLocationsRequest>) {
        let key: DebugSourceKey
        do {
            key = try sourceKey(request.source)
        } catch {
            return reply.fail("\(error)")
        }
        let command = DebugCommand.breakpointLocations(
            source: key, line: request.line, endLine: request.endLine ?? request.line)
        forward(command, reply) { engineReply in
            guard case .lines(let lines) = engineReply else { return nil }
            return BreakpointLocationsBody(breakpoints: lines.map { .init(line: $0) })
        }
    }

    func source(_ request: SourceRequest, _ reply: Reply<SourceRequest>) {
        let reference = request.source?.sourceReference ?? request.sourceReference ?? 0
        if reference == 0, let path = request.source?.path {
            guard let data = FileManager.default.contents(atPath: path) else {
                return reply.fail("\(path): no such file")
            }
            return reply.succeed(SourceBody(content: String(decoding: data, as: UTF8.self)))
        }
        guard let key = state.withLock({ $0.sourceMap.key(forReference: reference) }) else {
            return reply.fail("no source has reference \(reference)")
        }
        forward(.source(key), reply) { engineReply in
            guard case .text(let text) = engineReply else { return nil }
            return SourceBody(content: text)
        }
    }

    func loadedSources(_ request: LoadedSourcesRequest, _ reply: Reply<LoadedSourcesRequest>) {
        forward(.loadedSources, reply) { [unowned self] engineReply in
            guard case .sources(let keys) = engineReply else { return nil }
            return LoadedSourcesBody(sources: keys.map { key in state.withLock { $0.sourceMap.source(for: key) } })
        }
    }
}
