/// The answer to one request, typed by it: the response names the request's command and
/// carries its `Response`, so no handler spells a command or picks a body type.
struct Reply<Request: DAPRequest>: Sendable {
    let seq: Int
    let session: DebugAdapterSession

    func succeed(_ body: Request.Response) {
        session.write(
            DAPResponse(seq: 0, requestSeq: seq, success: true, command: Request.command, message: nil, body: body))
    }

    func fail(_ message: String) {
        session.respondError(requestSeq: seq, command: Request.command, message: message)
    }
}
