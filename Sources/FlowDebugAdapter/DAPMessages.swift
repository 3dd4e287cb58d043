/// The Debug Adapter Protocol's envelopes and the bodies `flowpkg dap` sends: small Codable
/// types, written by hand for the part of DAP this adapter speaks.
///
/// A request is decoded twice at most: once for its envelope (`seq`, `command`), once into
/// the arguments type bound to that command (`DAPRequest.command`).
public struct DAPEnvelope: Decodable, Sendable {
    public var seq: Int
    public var type: String
    public var command: String?
}

/// A request's arguments, bound to the command name that carries them.
public protocol DAPRequest: Decodable, Sendable {
    static var command: String { get }
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

struct DAPEvent<Body: Encodable>: Encodable {
    var seq: Int
    var type = "event"
    var event: String
    var body: Body?
}

struct Empty: Codable, Sendable {}

// MARK: Bodies

public struct DAPSource: Codable, Sendable, Equatable {
    public var name: String?
    public var path: String?
    public var sourceReference: Int?

    public init(name: String? = nil, path: String? = nil, sourceReference: Int? = nil) {
        self.name = name
        self.path = path
        self.sourceReference = sourceReference
    }
}

struct DAPBreakpoint: Encodable {
    var id: Int
    var verified: Bool
    var line: Int
    var message: String?
    var source: DAPSource?
}

struct ExceptionFilter: Encodable {
    var filter: String
    var label: String
    var description: String
    var `default`: Bool
}

struct Capabilities: Encodable {
    var supportsConfigurationDoneRequest = true
    var supportsConditionalBreakpoints = true
    var supportsHitConditionalBreakpoints = true
    var supportsLogPoints = true
    var supportsEvaluateForHovers = true
    var supportsSetVariable = true
    var supportsLoadedSourcesRequest = true
    var supportsBreakpointLocationsRequest = true
    var supportsTerminateRequest = true
    var exceptionBreakpointFilters = [
        ExceptionFilter(
            filter: "raised", label: "Raised Exceptions", description: "Stop on every error, caught by pcall or not",
            default: false),
        ExceptionFilter(
            filter: "uncaught", label: "Uncaught Exceptions", description: "Stop on an error nothing catches",
            default: true),
    ]
}

struct StackFrameBody: Encodable {
    struct Frame: Encodable {
        var id: Int
        var name: String
        var source: DAPSource?
        var line: Int
        var column: Int
    }
    var stackFrames: [Frame]
    var totalFrames: Int
}

struct ScopesBody: Encodable {
    struct Scope: Encodable {
        var name: String
        var variablesReference: Int
        var expensive: Bool
        var presentationHint: String?
    }
    var scopes: [Scope]
}

struct VariablesBody: Encodable {
    struct Variable: Encodable {
        var name: String
        var value: String
        var type: String
        var variablesReference: Int
    }
    var variables: [Variable]
}

struct EvaluateBody: Encodable {
    var result: String
    var type: String
    var variablesReference: Int
}

struct SetVariableBody: Encodable {
    var value: String
    var type: String
    var variablesReference: Int
}

struct ThreadsBody: Encodable {
    struct Thread: Encodable {
        var id: Int
        var name: String
    }
    var threads: [Thread]
}

struct BreakpointsBody: Encodable {
    var breakpoints: [DAPBreakpoint]
}

struct BreakpointLocationsBody: Encodable {
    struct Location: Encodable { var line: Int }
    var breakpoints: [Location]
}

struct SourceBody: Encodable {
    var content: String
    var mimeType = "text/x-lua"
}

struct LoadedSourcesBody: Encodable {
    var sources: [DAPSource]
}

struct StoppedEventBody: Encodable {
    var reason: String
    var threadId: Int
    var description: String?
    var text: String?
    var allThreadsStopped = true
    var hitBreakpointIds: [Int]?
}

struct OutputEventBody: Encodable {
    var category: String
    var output: String
}

struct ProcessEventBody: Encodable {
    var name: String
    var systemProcessId: Int32
    var isLocalProcess = true
    var startMethod = "launch"
}

struct ExitedEventBody: Encodable {
    var exitCode: Int32
}

struct BreakpointEventBody: Encodable {
    var reason = "changed"
    var breakpoint: DAPBreakpoint
}

struct LoadedSourceEventBody: Encodable {
    var reason = "new"
    var source: DAPSource
}

struct ContinueBody: Encodable {
    var allThreadsContinued = true
}
