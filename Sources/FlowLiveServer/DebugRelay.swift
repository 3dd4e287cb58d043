import FlowHTTP
import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg serve`'s part of the debugger: it passes `DebugRequest`s from a debugger
/// (`flowpkg dap` attached) to a program following the live source, and `DebugMessage`s back,
/// over two event streams and two POST routes, all behind the token. Nothing new listens.
///
/// One debugger per program; when the debugger's stream ends (it detached or vanished), the
/// program is told to disconnect, so it runs on with no breakpoint.
final class DebugRelay: Sendable {
    private struct Program {
        var attachment: DebugAttachment
        var requests: EventSubscription
        var client: EventSubscription?
    }

    private let programs = Locked([String: Program]())
    /// The session page's evaluations waiting for the program's reply, by their (negative) seq.
    private let evaluations = Awaited((next: -1, replies: [Int: DebugReply?]()))
    /// How long the session page's console waits for a program's answer.
    static let evaluationTimeout: TimeInterval = 10

    /// The answer for a request on one of the relay's paths; nil for any other path.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        switch (request.path, request.method) {
        case (LiveProtocol.debugProgramPath, "GET"): return programConnected(request)
        case (LiveProtocol.debugProgramPath, "POST"): return programSent(request)
        case (LiveProtocol.debugClientPath, "GET"): return debuggerAttached(request)
        case (LiveProtocol.debugClientPath, "POST"): return debuggerSent(request)
        case (LiveProtocol.debugEvaluatePath, "POST"): return evaluate(request)
        case (LiveProtocol.debugProgramPath, _), (LiveProtocol.debugClientPath, _), (LiveProtocol.debugEvaluatePath, _):
            return HTTPResponse.error(405, "\(request.path) takes GET (an event stream) or POST")
        default: return nil
        }
    }

    /// Ends every stream (the server is stopping).
    func finishAll() {
        for program in programs.withLock({ Array($0.values) }) {
            program.requests.finish()
            program.client?.finish()
        }
    }

    private func programConnected(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.query["id"], !id.isEmpty else {
            return HTTPResponse.error(400, "the program's id is missing (?id=)")
        }
        let attachment = DebugAttachment(
            id: id, identifier: request.query["identifier"] ?? "", processID: Int32(request.query["pid"] ?? "") ?? 0)
        let stream = EventSubscription { [weak self] stream in
            self?.programs.withLock { programs in
                guard programs[id]?.requests === stream else { return }
                programs[id]?.client?.finish()
                programs[id] = nil
            }
        }
        stream.yield(Array(": debug channel open\n\n".utf8))
        // A program connecting again has let go of its debugger: its channel's stream ended on
        // its side (a message this relay did not take), and its engine then ended any stop and
        // cleared the breakpoints. When it comes back before this relay noticed the old stream
        // end, the debugger attached through it is told now, by the end of its own stream (the
        // adapter answers what it waits for and says terminated), not left waiting for
        // answers that went down the old stream or never came.
        let previous = programs.withLock { programs in
            defer { programs[id] = Program(attachment: attachment, requests: stream, client: nil) }
            return programs[id]
        }
        previous?.requests.finish()
        previous?.client?.finish()
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: .events(stream))
    }

    private func programSent(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.query["id"], let program = programs.withLock({ $0[id] }) else {
            return HTTPResponse.error(404, "no program with this id has its debug channel open")
        }
        guard let message = try? JSONDecoder().decode(DebugMessage.self, from: Data(request.body)) else {
            return HTTPResponse.error(400, "the body is not a debug message in JSON")
        }
        if case .reply(let seq, let reply) = message, seq < 0 {
            // The answer to the session page's console, not to a debugger.
            evaluations.withLock { if $0.replies.keys.contains(seq) { $0.replies[seq] = .some(reply) } }
            return HTTPResponse(status: 204, contentType: "application/json", body: .bytes([]))
        }
        program.client?.yield(Self.event(LiveProtocol.debugEvent, request.body))
        return HTTPResponse(status: 204, contentType: "application/json", body: .bytes([]))
    }

    /// The one program `wanted` names (an identifier, a process id or an id; nil: the only
    /// one connected), or the answer saying why none.
    private func choose(_ wanted: String?) -> Result<Program, ChoiceFailure> {
        let candidates = programs.withLock { programs in
            programs.values.filter { program in
                guard let wanted else { return true }
                return program.attachment.identifier == wanted || String(program.attachment.processID) == wanted
                    || program.attachment.id == wanted
            }
        }
        guard let chosen = candidates.first else {
            return .failure(
                ChoiceFailure(
                    response: HTTPResponse.error(
                        404,
                        wanted.map { "no program '\($0)' is connected to this flowpkg serve" }
                            ?? "no program is connected to this flowpkg serve: start one with FLOWPKG_LIVE_TOKEN=TOKEN flowpkg run --live URL"
                    )))
        }
        guard candidates.count == 1 else {
            let names = candidates.map { "\($0.attachment.identifier) (pid \($0.attachment.processID))" }
            return .failure(
                ChoiceFailure(
                    response: HTTPResponse.error(
                        409,
                        "several programs are connected (\(names.joined(separator: ", "))): name one with 'program'")))
        }
        return .success(chosen)
    }

    private struct ChoiceFailure: Error {
        var response: HTTPResponse
    }

    /// The session page's console: `POST ?program=` with `{"expression": "…"}` → `{"result",
    /// "type"}`, evaluated in the program's global environment at its next safe point.
    private func evaluate(_ request: HTTPRequest) -> HTTPResponse {
        struct Asked: Decodable { var expression: String }
        struct Answer: Encodable {
            var result: String
            var type: String
        }
        guard let asked = try? JSONDecoder().decode(Asked.self, from: Data(request.body)) else {
            return HTTPResponse.error(400, "the body must be JSON with an 'expression'")
        }
        let program: Program
        switch choose(request.query["program"].flatMap { $0.isEmpty ? nil : $0 }) {
        case .success(let chosen): program = chosen
        case .failure(let failure): return failure.response
        }
        let seq = evaluations.withLock { evaluations in
            defer { evaluations.next -= 1 }
            evaluations.replies[evaluations.next] = .some(nil)
            return evaluations.next
        }
        let command = DebugRequest(seq: seq, command: .evaluate(expression: asked.expression, frame: nil))
        guard let bytes = try? JSONEncoder().encode(command) else {
            return HTTPResponse.error(500, "the request cannot be encoded")
        }
        program.requests.yield(Self.event(LiveProtocol.debugEvent, [UInt8](bytes)))
        let reply = evaluations.wait(
            until: { evaluations -> DebugReply?? in
                guard case .some(.some(let reply)) = evaluations.replies[seq] else { return nil }
                return .some(reply)
            }, deadline: Date() + Self.evaluationTimeout)
        evaluations.withLock { _ = $0.replies.removeValue(forKey: seq) }
        switch reply {
        case .some(.some(.value(let value))):
            let body = (try? JSONEncoder().encode(Answer(result: value.value, type: value.type))) ?? Data()
            return HTTPResponse(status: 200, contentType: "application/json", body: .bytes([UInt8](body)))
        case .some(.some(.failure(let message))):
            return HTTPResponse.error(400, message)
        default:
            return HTTPResponse.error(
                504,
                "\(program.attachment.identifier) did not answer within \(Int(Self.evaluationTimeout)) s (busy in C code?)"
            )
        }
    }

    private func debuggerAttached(_ request: HTTPRequest) -> HTTPResponse {
        let wanted = request.query["program"].flatMap { $0.isEmpty ? nil : $0 }
        let chosen: Program
        switch choose(wanted) {
        case .success(let program): chosen = program
        case .failure(let failure): return failure.response
        }
        let id = chosen.attachment.id
        let stream = EventSubscription { [weak self] stream in
            // The debugger has gone: the program runs on without breakpoints.
            guard let self else { return }
            let requests = programs.withLock { programs -> EventSubscription? in
                guard programs[id]?.client === stream else { return nil }
                programs[id]?.client = nil
                return programs[id]?.requests
            }
            let disconnect = (try? JSONEncoder().encode(DebugRequest(seq: 0, command: .disconnect))).map { [UInt8]($0) }
            if let requests, let disconnect { requests.yield(Self.event(LiveProtocol.debugEvent, disconnect)) }
        }
        let taken = programs.withLock { programs -> Bool in
            guard programs[id]?.client == nil else { return false }
            programs[id]?.client = stream
            return true
        }
        guard taken else {
            return HTTPResponse.error(409, "a debugger is already attached to \(chosen.attachment.identifier)")
        }
        let attached = (try? JSONEncoder().encode(chosen.attachment)).map { [UInt8]($0) } ?? []
        stream.yield(Self.event(LiveProtocol.debugAttachedEvent, attached))
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: .events(stream))
    }

    private func debuggerSent(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.query["program"], let program = programs.withLock({ $0[id] }) else {
            return HTTPResponse.error(404, "the program is no longer connected")
        }
        guard (try? JSONDecoder().decode(DebugRequest.self, from: Data(request.body))) != nil else {
            return HTTPResponse.error(400, "the body is not a debug request in JSON")
        }
        program.requests.yield(Self.event(LiveProtocol.debugEvent, request.body))
        return HTTPResponse(status: 204, contentType: "application/json", body: .bytes([]))
    }

    private static func event(_ name: String, _ json: [UInt8]) -> [UInt8] {
        Array("event: \(name)\ndata: ".utf8) + json + Array("\n\n".utf8)
    }
}
