import FlowHTTP
import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg serve`'s part of `flowpkg test --live`: it passes a `LiveTestRequest` to a program
/// following the live source (which keeps the test stream open) and each `LiveTestMessage` the
/// program sends back to whoever asked, until the run's last message. Behind the token, as
/// everything on the channel; nothing new listens.
final class TestRelay: Sendable {
    private struct Program {
        var id: String
        var identifier: String
        var processID: Int32
        var requests: EventSubscription
    }

    private struct Run {
        var program: String
        var deliver: @Sendable (LiveTestMessage) -> Void
    }

    private let programs = Locked([String: Program]())
    private let runs = Locked([String: Run]())

    /// The answer for a request on one of the relay's paths; nil for any other path.
    func respond(to request: HTTPRequest) -> HTTPResponse? {
        switch (request.path, request.method) {
        case (LiveProtocol.testProgramPath, "GET"): return programConnected(request)
        case (LiveProtocol.testProgramPath, "POST"): return programSent(request)
        case (LiveProtocol.testRunPath, "POST"): return runAsked(request)
        case (LiveProtocol.testProgramPath, _):
            return HTTPResponse.error(405, "\(request.path) takes GET (an event stream) or POST")
        case (LiveProtocol.testRunPath, _):
            return HTTPResponse.error(405, "\(request.path) takes POST with a test request in JSON")
        default: return nil
        }
    }

    /// Ends every stream (the server is stopping); runs under way are refused.
    func finishAll() {
        for program in programs.withLock({ Array($0.values) }) { program.requests.finish() }
        for run in runs.withLock({ runs in
            defer { runs = [:] }; return Array(runs.values)
        }) {
            run.deliver(.refused("flowpkg serve stopped before the tests finished"))
        }
    }

    /// Starts `request` in the program `wanted` names (an identifier, a process id or an id;
    /// nil: the only one connected). `deliver` gets each message the program sends, the last
    /// one `finished` or `refused`; a run no program can take gets `refused` at once.
    func start(
        _ request: LiveTestRequest, program wanted: String?, deliver: @escaping @Sendable (LiveTestMessage) -> Void
    ) {
        let program: Program
        switch choose(wanted) {
        case .success(let chosen): program = chosen
        case .failure(let reason):
            deliver(.refused(reason.message))
            return
        }
        guard let json = try? JSONEncoder().encode(request) else {
            deliver(.refused("the test request cannot be encoded"))
            return
        }
        runs.withLock { $0[request.run] = Run(program: program.id, deliver: deliver) }
        program.requests.yield(Self.event([UInt8](json)))
    }

    /// Forgets a run whose asker has gone.
    func cancel(run: String) {
        runs.withLock { _ = $0.removeValue(forKey: run) }
    }

    private func programConnected(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.query["id"], !id.isEmpty else {
            return HTTPResponse.error(400, "the program's id is missing (?id=)")
        }
        let stream = EventSubscription { [weak self] stream in
            guard let self else { return }
            let gone = programs.withLock { programs -> Bool in
                guard programs[id]?.requests === stream else { return false }
                programs[id] = nil
                return true
            }
            guard gone else { return }
            let orphans = runs.withLock { runs -> [Run] in
                let left = runs.filter { $0.value.program == id }
                for key in left.keys { runs[key] = nil }
                return Array(left.values)
            }
            for run in orphans { run.deliver(.refused("the program ended before its tests finished")) }
        }
        stream.yield(Array(": test channel open\n\n".utf8))
        let program = Program(
            id: id, identifier: request.query["identifier"] ?? "",
            processID: Int32(request.query["pid"] ?? "") ?? 0, requests: stream)
        let previous = programs.withLock { programs in
            defer { programs[id] = program }
            return programs[id]?.requests
        }
        previous?.finish()
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: .events(stream))
    }

    private func programSent(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.query["id"], let key = request.query["run"],
            let run = runs.withLock({ $0[key] }), run.program == id
        else {
            return HTTPResponse.error(404, "no test run of this program is under way with this id")
        }
        guard let message = try? JSONDecoder().decode(LiveTestMessage.self, from: Data(request.body)) else {
            return HTTPResponse.error(400, "the body is not a test message in JSON")
        }
        if message.isLast { cancel(run: key) }
        run.deliver(message)
        return HTTPResponse(status: 204, contentType: "application/json", body: .bytes([]))
    }

    /// `flowpkg test --live`: the run's messages as an event stream, answering the POST.
    private func runAsked(_ request: HTTPRequest) -> HTTPResponse {
        let asked: LiveTestRequest
        do {
            asked = try JSONDecoder().decode(LiveTestRequest.self, from: Data(request.body))
        } catch {
            return HTTPResponse.error(400, "the body is not a flowpkg test request in JSON: \(error)")
        }
        let run = asked.run
        let stream = EventSubscription { [weak self] _ in self?.cancel(run: run) }
        start(asked, program: request.query["program"].flatMap { $0.isEmpty ? nil : $0 }) { message in
            guard let json = try? JSONEncoder().encode(message) else { return }
            stream.yield(Self.event([UInt8](json)))
            if message.isLast { stream.finish() }
        }
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: .events(stream))
    }

    private struct NoProgram: Error {
        var message: String
    }

    /// The one program `wanted` names (nil: the only one connected), or why none.
    private func choose(_ wanted: String?) -> Result<Program, NoProgram> {
        let candidates = programs.withLock { programs in
            programs.values.filter { program in
                guard let wanted else { return true }
                return program.identifier == wanted || String(program.processID) == wanted || program.id == wanted
            }
        }
        guard let chosen = candidates.first else {
            return .failure(
                NoProgram(
                    message: wanted.map { "no program '\($0)' is connected to this flowpkg serve" }
                        ?? "no program is connected to this flowpkg serve: start one that follows it "
                        + "(FLOWPKG_LIVE_TOKEN=TOKEN flowpkg run --live URL --watch, or a host with the development monitor)"
                ))
        }
        guard candidates.count == 1 else {
            let names = candidates.map { "\($0.identifier) (pid \($0.processID))" }.sorted()
            return .failure(
                NoProgram(
                    message:
                        "several programs are connected (\(names.joined(separator: ", "))): name one with --program"))
        }
        return .success(chosen)
    }

    private static func event(_ json: [UInt8]) -> [UInt8] {
        Array("event: \(LiveProtocol.testEvent)\ndata: ".utf8) + json + Array("\n\n".utf8)
    }
}
