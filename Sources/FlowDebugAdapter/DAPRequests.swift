/// Each request `flowpkg dap` answers: its arguments, bound to its command name.
public struct InitializeRequest: DAPRequest {
    public static let command = "initialize"
    public var clientID: String?
    public var linesStartAt1: Bool?
}

public struct LaunchRequest: DAPRequest {
    public static let command = "launch"
    /// A project folder or a `.luapkg`.
    public var program: String?
    public var args: [String]?
    public var cwd: String?
    public var stopOnEntry: Bool?
    public var noDebug: Bool?
}

public struct AttachRequest: DAPRequest {
    public static let command = "attach"
    /// `flowpkg serve`'s URL.
    public var serve: String?
    public var token: String?
    /// The package identifier (a string) or the process id (a number) of the program; may be
    /// left out when only one is connected.
    public var program: ProgramChoice?
    /// Accepted for editors that pass it: a program attached to is never ended by the adapter.
    public var cwd: String?

    public enum ProgramChoice: Decodable, Sendable {
        case identifier(String)
        case processID(Int)

        public init(from decoder: any Decoder) throws {
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

public struct SetBreakpointsRequest: DAPRequest {
    public static let command = "setBreakpoints"
    public struct SourceBreakpoint: Decodable, Sendable {
        public var line: Int
        public var condition: String?
        public var hitCondition: String?
        public var logMessage: String?
    }
    public var source: DAPSource
    public var breakpoints: [SourceBreakpoint]?
}

public struct SetExceptionBreakpointsRequest: DAPRequest {
    public static let command = "setExceptionBreakpoints"
    public var filters: [String]
}

public struct ConfigurationDoneRequest: DAPRequest {
    public static let command = "configurationDone"
}

public struct ThreadsRequest: DAPRequest {
    public static let command = "threads"
}

public struct StackTraceRequest: DAPRequest {
    public static let command = "stackTrace"
    public var threadId: Int
    public var startFrame: Int?
    public var levels: Int?
}

public struct ScopesRequest: DAPRequest {
    public static let command = "scopes"
    public var frameId: Int
}

public struct VariablesRequest: DAPRequest {
    public static let command = "variables"
    public var variablesReference: Int
}

public struct ContinueRequest: DAPRequest {
    public static let command = "continue"
    public var threadId: Int?
}

public struct NextRequest: DAPRequest {
    public static let command = "next"
    public var threadId: Int?
}

public struct StepInRequest: DAPRequest {
    public static let command = "stepIn"
    public var threadId: Int?
}

public struct StepOutRequest: DAPRequest {
    public static let command = "stepOut"
    public var threadId: Int?
}

public struct PauseRequest: DAPRequest {
    public static let command = "pause"
    public var threadId: Int?
}

public struct EvaluateRequest: DAPRequest {
    public static let command = "evaluate"
    public var expression: String
    public var frameId: Int?
    public var context: String?
}

public struct SetVariableRequest: DAPRequest {
    public static let command = "setVariable"
    public var variablesReference: Int
    public var name: String
    public var value: String
}

public struct SourceRequest: DAPRequest {
    public static let command = "source"
    public var source: DAPSource?
    public var sourceReference: Int?
}

public struct LoadedSourcesRequest: DAPRequest {
    public static let command = "loadedSources"
}

public struct BreakpointLocationsRequest: DAPRequest {
    public static let command = "breakpointLocations"
    public var source: DAPSource
    public var line: Int
    public var endLine: Int?
}

public struct DisconnectRequest: DAPRequest {
    public static let command = "disconnect"
    public var terminateDebuggee: Bool?
}

public struct TerminateRequest: DAPRequest {
    public static let command = "terminate"
}
