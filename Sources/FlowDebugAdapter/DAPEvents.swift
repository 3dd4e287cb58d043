/// The events `flowpkg dap` sends, each bound to its event name.
struct StoppedEvent: DAPEventBody {
    static let event = "stopped"
    var reason: String
    var threadId: Int
    var description: String?
    var text: String?
    var allThreadsStopped = true
    var hitBreakpointIds: [Int]?
}

struct OutputEvent: DAPEventBody {
    static let event = "output"
    var category: String
    var output: String
}

struct ProcessEvent: DAPEventBody {
    static let event = "process"
    var name: String
    var systemProcessId: Int32
    var isLocalProcess = true
    var startMethod = "launch"
}

struct ExitedEvent: DAPEventBody {
    static let event = "exited"
    var exitCode: Int32
}

struct TerminatedEvent: DAPEventBody {
    static let event = "terminated"
}

/// The adapter is ready for the editor's configuration (breakpoints, then `configurationDone`).
struct InitializedEvent: DAPEventBody {
    static let event = "initialized"
}

struct BreakpointEvent: DAPEventBody {
    static let event = "breakpoint"
    var reason = "changed"
    var breakpoint: DAPBreakpoint
}

struct LoadedSourceEvent: DAPEventBody {
    static let event = "loadedSource"
    var reason = "new"
    var source: DAPSource
}
