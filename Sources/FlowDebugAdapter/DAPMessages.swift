/// The Debug Adapter Protocol's envelopes and the bodies `flowpkg dap` sends: small Codable
/// types, written by hand for the part of DAP this adapter speaks.
///
/// As LSP's requests are typed (LanguageServerProtocol's `RequestType`), each DAP request is a
/// type bound to its command name and to the body of its answer (`DAPRequest.Response`); each
/// event is a type bound to its event name (`DAPEventBody.event`). The session routes a request
/// by looking its command up among the types it registered and decodes it once, into that type;
/// no command or event name is written anywhere else.
struct DAPEnvelope: Decodable, Sendable {
    var seq: Int
    var type: String
    var command: String?
}

/// A request's arguments, bound to the command name that carries them and to its answer's body.
protocol DAPRequest: Decodable, Sendable {
    /// What a successful answer carries (`Empty`: nothing).
    associatedtype Response: Encodable & Sendable
    static var command: String { get }
}

/// An event's body, bound to its event name.
protocol DAPEventBody: Encodable, Sendable {
    static var event: String { get }
}

/// The arguments of a request as the wire holds them (`arguments` may be absent).
struct DAPArguments<Request: DAPRequest>: Decodable {
    var arguments: Request?
}

struct DAPResponse<Body: Encodable>: Encodable {
    var seq: Int
    var type = "response"
    var requestSeq: Int
    var success: Bool
    var command: String
    var message: String?
    var body: Body?

    enum CodingKeys: String, CodingKey {
        case seq, type, success, command, message, body
        case requestSeq = "request_seq"
    }
}

struct DAPEvent<Body: DAPEventBody>: Encodable {
    var seq: Int
    var type = "event"
    var event = Body.event
    var body: Body
}

/// No body: the answer of a request that only succeeds or fails, an event that only happens.
struct Empty: Codable, Sendable {}
