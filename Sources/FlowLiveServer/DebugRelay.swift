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

    /// The answer for a request on one of the relay's paths; nil for any other path.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        switch (request.path, request.method) {
        case (LiveProtocol.debugProgramPath, "GET"): return programConnected(request)
        case (LiveProtocol.debugProgramPath, "POST"): return programSent(request)
        case (LiveProtocol.debugClientPath, "GET"): return debuggerAttached(request)
        case (LiveProtocol.debugClientPath, "POST"): return debuggerSent(request)
        case (LiveProtocol.debugProgramPath, _), (LiveProtocol.debugClientPath, _):
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
        let previous = programs.withLock { programs in
            defer { programs[id] = Program(attachment: attachment, requests: stream, client: programs[id]?.client) }
            return programs[id]?.requests
        }
        previous?.finish()
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: .events(stream))
    }

    private func programSent(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.query["id"], let program = programs.withLock({ $0[id] }) else {
            return HTTPResponse.error(404, "no program with this id has its debug channel open")
        }
        guard (try? JSONDecoder().decode(DebugMessage.self, from: Data(request.body))) != nil else {
            return HTTPResponse.error(400, "the body is not a debug message in JSON")
        }
        program.client?.yield(Self.event(LiveProtocol.debugEvent, request.body))
        return HTTPResponse(status: 204, contentType: "application/json", body: .bytes([]))
    }

    private func debuggerAttached(_ request: HTTPRequest) -> HTTPResponse {
        let wanted = request.query["program"].flatMap { $0.isEmpty ? nil : $0 }
        let candidates = programs.withLock { programs in
            programs.values.filter { program in
                guard let wanted else { return true }
                return program.attachment.identifier == wanted || String(program.attachment.processID) == wanted
                    || program.attachment.id == wanted
            }
        }
        guard let chosen = candidates.first else {
            return HTTPResponse.error(
                404,
                wanted.map { "no program '\($0)' is connected to this flowpkg serve" }
                    ?? "no program is connected to this flowpkg serve: start one with flowpkg run --live URL --token TOKEN"
            )
        }
        guard candidates.count == 1 else {
            let names = candidates.map { "\($0.attachment.identifier) (pid \($0.attachment.processID))" }
            return HTTPResponse.error(
                409, "several programs are connected (\(names.joined(separator: ", "))): name one with 'program'")
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
