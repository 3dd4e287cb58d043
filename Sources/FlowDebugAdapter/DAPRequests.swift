/// Each request `flowpkg dap` answers: its arguments, bound to its command name and to the
/// body of its answer.
struct InitializeRequest: DAPRequest {
    typealias Response = Capabilities
    static let command = "initialize"
    var clientID: String?
    var linesStartAt1: Bool?
}

struct LaunchRequest: DAPRequest {
    typealias Response = Empty
    static let command = "launch"
    /// A project folder or a `.luapkg`.
    var program: String?
    var args: [String]?
    var cwd: String?
    var stopOnEntry: Bool?
    var noDebug: Bool?
}

struct AttachRequest: DAPRequest {
    typealias Response = Empty
    static let command = "attach"
    /// `flowpkg serve`'s URL.
    var serve: String?
    var token: String?
    /// The package identifier (a string) or the process id (a number) of the program; may be
    /// left out when only one is connected.
    var program: ProgramChoice?
    /// Accepted for editors that pass it: a program attached to is never ended by the adapter.
    var cwd: String?

    enum ProgramChoice: Decodable, Sendable {
        case identifier(String)
        case processID(Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .processID(number)
            } else {
                self = .identifier(try container.decode(String.self))
            }
        }

        var query: String {
            switch self {
            case .identifier(let name): return name
            case .processID(let number): return String(number)
            }
        }
    }
}

struct SetBreakpointsRequest: DAPRequest {
    typealias Response = BreakpointsBody
    static let command = "setBreakpoints"
    struct SourceBreakpoint: Decodable, Sendable {
        var line: Int
        var condition: String?
        var hitCondition: String?
        var logMessage: String?
    }
    var source: DAPSource
    var breakpoints: [SourceBreakpoint]?
}

struct SetExceptionBreakpointsRequest: DAPRequest {
    typealias Response = Empty
    static let command = "setExceptionBreakpoints"
    var filters: [String]
}

struct ConfigurationDoneRequest: DAPRequest {
    typealias Response = Empty
    static let command = "configurationDone"
}

struct ThreadsRequest: DAPRequest {
    typealias Response = ThreadsBody
    static let command = "threads"
}

struct StackTraceRequest: DAPRequest {
    typealias Response = StackFrameBody
    static let command = "stackTrace"
    var threadId: Int
    var startFrame: Int?
    var levels: Int?
}

struct ScopesRequest: DAPRequest {
    typealias Response = ScopesBody
    static let command = "scopes"
    var frameId: Int
}

struct VariablesRequest: DAPRequest {
    typealias Response = VariablesBody
    static let command = "variables"
    var variablesReference: Int
}

struct ContinueRequest: DAPRequest {
    typealias Response = ContinueBody
    static let command = "continue"
    var threadId: Int?
}

struct NextRequest: DAPRequest {
    typealias Response = Empty
    static let command = "next"
    var threadId: Int?
}

struct StepInRequest: DAPRequest {
    typealias Response = Empty
    static let command = "stepIn"
    var threadId: Int?
}

struct StepOutRequest: DAPRequest {
    typealias Response = Empty
    static let command = "stepOut"
    var threadId: Int?
}

struct PauseRequest: DAPRequest {
    typealias Response = Empty
    static let command = "pause"
    var threadId: Int?
}

struct EvaluateRequest: DAPRequest {
    typealias Response = EvaluateBody
    static let command = "evaluate"
    var expression: String
    var frameId: Int?
    var context: String?
}

struct SetVariableRequest: DAPRequest {
    typealias Response = SetVariableBody
    static let command = "setVariable"
    var variablesReference: Int
    var name: String
    var value: String
}

struct SourceRequest: DAPRequest {
    typealias Response = SourceBody
    static let command = "source"
    var source: DAPSource?
    var sourceReference: Int?
}

struct LoadedSourcesRequest: DAPRequest {
    typealias Response = LoadedSourcesBody
    static let command = "loadedSources"
}

struct BreakpointLocationsRequest: DAPRequest {
    typealias Response = BreakpointLocationsBody
    static let command = "breakpointLocations"
    var source: DAPSource
    var line: Int
    var endLine: Int?
}

struct DisconnectRequest: DAPRequest {
    typealias Response = Empty
    static let command = "disconnect"
    var terminateDebuggee: Bool?
}

struct TerminateRequest: DAPRequest {
    typealias Response = Empty
    static let command = "terminate"
}

struct SetFunctionBreakpointsRequest: DAPRequest {
    typealias Response = BreakpointsBody
    static let command = "setFunctionBreakpoints"
    struct FunctionBreakpoint: Decodable, Sendable {
        var name: String
        var condition: String?
        var hitCondition: String?
    }
    var breakpoints: [FunctionBreakpoint]
}

struct ExceptionInfoRequest: DAPRequest {
    typealias Response = ExceptionInfoBody
    static let command = "exceptionInfo"
    var threadId: Int
}

struct CompletionsRequest: DAPRequest {
    typealias Response = CompletionsBody
    static let command = "completions"
    var text: String
    /// Where the cursor is in `text`, in characters counted from 1.
    var column: Int
    var frameId: Int?
}
