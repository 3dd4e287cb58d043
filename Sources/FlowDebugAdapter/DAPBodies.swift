/// The bodies of the answers `flowpkg dap` gives, each named by the request that gets it
/// (`DAPRequest.Response`).
struct DAPSource: Codable, Sendable, Equatable {
    var name: String?
    var path: String?
    var sourceReference: Int?

    init(name: String? = nil, path: String? = nil, sourceReference: Int? = nil) {
        self.name = name
        self.path = path
        self.sourceReference = sourceReference
    }
}

struct DAPBreakpoint: Encodable, Sendable {
    var id: Int
    var verified: Bool
    var line: Int
    var message: String?
    var source: DAPSource?
}

struct ExceptionFilter: Encodable, Sendable {
    var filter: String
    var label: String
    var description: String
    var `default`: Bool
}

struct Capabilities: Encodable, Sendable {
    var supportsConfigurationDoneRequest = true
    var supportsConditionalBreakpoints = true
    var supportsHitConditionalBreakpoints = true
    var supportsLogPoints = true
    var supportsEvaluateForHovers = true
    var supportsSetVariable = true
    var supportsLoadedSourcesRequest = true
    var supportsBreakpointLocationsRequest = true
    var supportsTerminateRequest = true
    var supportsFunctionBreakpoints = true
    var supportsExceptionInfoRequest = true
    var supportsCompletionsRequest = true
    var exceptionBreakpointFilters = [
        ExceptionFilter(
            filter: "raised", label: "Raised Exceptions", description: "Stop on every error, caught by pcall or not",
            default: false),
        ExceptionFilter(
            filter: "uncaught", label: "Uncaught Exceptions", description: "Stop on an error nothing catches",
            default: true),
    ]
}

struct StackFrameBody: Encodable, Sendable {
    struct Frame: Encodable, Sendable {
        var id: Int
        var name: String
        var source: DAPSource?
        var line: Int
        var column: Int
    }
    var stackFrames: [Frame]
    var totalFrames: Int
}

struct ScopesBody: Encodable, Sendable {
    struct Scope: Encodable, Sendable {
        var name: String
        var variablesReference: Int
        var expensive: Bool
        var presentationHint: String?
    }
    var scopes: [Scope]
}

struct VariablesBody: Encodable, Sendable {
    struct Variable: Encodable, Sendable {
        var name: String
        var value: String
        var type: String
        var variablesReference: Int
    }
    var variables: [Variable]
}

struct EvaluateBody: Encodable, Sendable {
    var result: String
    var type: String
    var variablesReference: Int
}

struct SetVariableBody: Encodable, Sendable {
    var value: String
    var type: String
    var variablesReference: Int
}

struct ThreadsBody: Encodable, Sendable {
    struct Thread: Encodable, Sendable {
        var id: Int
        var name: String
    }
    var threads: [Thread]
}

struct BreakpointsBody: Encodable, Sendable {
    var breakpoints: [DAPBreakpoint]
}

struct BreakpointLocationsBody: Encodable, Sendable {
    struct Location: Encodable, Sendable { var line: Int }
    var breakpoints: [Location]
}

struct SourceBody: Encodable, Sendable {
    var content: String
    var mimeType = "text/x-lua"
}

struct LoadedSourcesBody: Encodable, Sendable {
    var sources: [DAPSource]
}

struct ContinueBody: Encodable, Sendable {
    var allThreadsContinued = true
}

struct ExceptionInfoBody: Encodable, Sendable {
    var exceptionId: String
    var description: String?
    /// `always` (the `raised` filter: every error stops) or `unhandled`.
    var breakMode: String
}

struct CompletionsBody: Encodable, Sendable {
    struct Item: Encodable, Sendable {
        var label: String
        /// DAP's `CompletionItemType`: `function`, `variable`, `property`…
        var type: String
    }
    var targets: [Item]
}
