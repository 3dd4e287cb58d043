import FlowPackage

/// The debug channel between a debugger (`flowpkg dap`) and the engine inside a program: one
/// JSON value a line each way. The debugger sends `DebugRequest`s; the program answers each
/// with a `DebugMessage.reply` carrying its `seq`, and sends `DebugMessage.event`s as things
/// happen. Sources are named by chunk name (`Sources/Main.lua`, what Lua's errors show) and,
/// for a module, by module name too.
public enum DebugProtocol {
    /// The environment variable `flowpkg dap` gives a program it launches: `HOST:PORT` of the
    /// private loopback channel to connect back to.
    public static let channelVariable = "FLOWPKG_DEBUG_CHANNEL"
    /// The environment variable holding the channel's token, the program's first line.
    public static let tokenVariable = "FLOWPKG_DEBUG_TOKEN"
}

/// One request from the debugger, with the number its reply carries.
public struct DebugRequest: Codable, Sendable, Equatable {
    public var seq: Int
    public var command: DebugCommand

    public init(seq: Int, command: DebugCommand) {
        self.seq = seq
        self.command = command
    }
}

/// What a debugger asks of the engine.
public enum DebugCommand: Codable, Sendable, Equatable {
    /// Every breakpoint of one source, replacing the ones it had.
    case setBreakpoints(source: DebugSourceKey, breakpoints: [DebugBreakpoint])
    /// Every function breakpoint, replacing the ones there were.
    case setFunctionBreakpoints([DebugFunctionBreakpoint])
    /// Which errors stop: `raised` (any, caught or not) and `uncaught`.
    case setExceptionFilters(raised: Bool, uncaught: Bool)
    /// The debugger has set what it wanted before the program starts; with `stopOnEntry`, the
    /// program stops at its first line.
    case configurationDone(stopOnEntry: Bool)
    case resume(DebugResumeKind)
    case pause
    case threads
    case stackTrace(thread: Int)
    case scopes(frame: Int)
    case variables(reference: Int)
    /// Evaluates in a frame when stopped; without one, in the global environment (at the
    /// program's next safe point when it runs).
    case evaluate(expression: String, frame: Int?)
    case setVariable(reference: Int, name: String, value: String)
    /// The names that may follow `text` (what the REPL holds before its cursor), in a frame
    /// when stopped: answered as `variables`, each with its type.
    case completions(text: String, frame: Int?)
    case source(DebugSourceKey)
    case loadedSources
    /// The lines code starts on in a source, from `line` to `endLine`.
    case breakpointLocations(source: DebugSourceKey, line: Int, endLine: Int)
    /// The debugger leaves: every breakpoint goes, the program runs on.
    case disconnect
}

/// How a stopped program goes on.
public enum DebugResumeKind: String, Codable, Sendable {
    case `continue`, next, stepIn, stepOut
}

/// A source as the engine knows it: its chunk name, and its module name when it is a module.
public struct DebugSourceKey: Codable, Sendable, Hashable {
    public var chunk: String
    public var module: String?

    public init(chunk: String, module: String? = nil) {
        self.chunk = chunk
        self.module = module
    }
}

/// A breakpoint as the debugger set it; `id` is the debugger's.
public struct DebugBreakpoint: Codable, Sendable, Equatable {
    public var id: Int
    public var line: Int
    public var condition: String?
    /// `5` (the fifth hit), `>= 5`, `% 5`…
    public var hitCondition: String?
    /// A log point's message: written, with `{expression}`s replaced, instead of stopping.
    public var logMessage: String?
    /// The SHA-256 (hex) of the file the debugger set it in: a module whose code differs
    /// leaves the breakpoint unverified.
    public var fileDigest: String?

    public init(
        id: Int, line: Int, condition: String? = nil, hitCondition: String? = nil, logMessage: String? = nil,
        fileDigest: String? = nil
    ) {
        self.id = id
        self.line = line
        self.condition = condition
        self.hitCondition = hitCondition
        self.logMessage = logMessage
        self.fileDigest = fileDigest
    }
}

/// A breakpoint on a function, by its name (`bump`, `M.double`, `Account:deposit`): it stops
/// on the first line of each function whose definition has that name, or ends with it.
public struct DebugFunctionBreakpoint: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var condition: String?
    public var hitCondition: String?

    public init(id: Int, name: String, condition: String? = nil, hitCondition: String? = nil) {
        self.id = id
        self.name = name
        self.condition = condition
        self.hitCondition = hitCondition
    }
}

/// Where a breakpoint stands: verified once its module is loaded and the line (or the next
/// line with code) found.
public struct DebugBreakpointState: Codable, Sendable, Equatable {
    public var id: Int
    public var verified: Bool
    public var line: Int
    public var message: String?
    /// Where a function breakpoint was found (a line breakpoint's source is the debugger's).
    public var source: DebugSourceKey?

    public init(id: Int, verified: Bool, line: Int, message: String? = nil, source: DebugSourceKey? = nil) {
        self.id = id
        self.verified = verified
        self.line = line
        self.message = message
        self.source = source
    }
}

public struct DebugThreadInfo: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

public struct DebugFrameInfo: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var source: DebugSourceKey?
    public var line: Int

    public init(id: Int, name: String, source: DebugSourceKey?, line: Int) {
        self.id = id
        self.name = name
        self.source = source
        self.line = line
    }
}

public struct DebugScopeInfo: Codable, Sendable, Equatable {
    public var name: String
    public var reference: Int
    public var expensive: Bool

    public init(name: String, reference: Int, expensive: Bool) {
        self.name = name
        self.reference = reference
        self.expensive = expensive
    }
}

public struct DebugVariableInfo: Codable, Sendable, Equatable {
    public var name: String
    public var value: String
    public var type: String
    /// Non-zero when it has children.
    public var reference: Int

    public init(name: String, value: String, type: String, reference: Int) {
        self.name = name
        self.value = value
        self.type = type
        self.reference = reference
    }
}

/// A reply's content.
public enum DebugReply: Codable, Sendable, Equatable {
    case done
    case failure(String)
    case breakpoints([DebugBreakpointState])
    case threads([DebugThreadInfo])
    case frames([DebugFrameInfo])
    case scopes([DebugScopeInfo])
    case variables([DebugVariableInfo])
    case value(DebugVariableInfo)
    case text(String)
    case sources([DebugSourceKey])
    case lines([Int])
}

/// What the engine sends: replies and events.
public enum DebugMessage: Codable, Sendable, Equatable {
    case reply(seq: Int, DebugReply)
    /// The program stopped: `reason` is DAP's (`breakpoint`, `step`, `pause`, `exception`,
    /// `entry`); `text` the error's message for an exception.
    case stopped(reason: String, thread: Int, text: String?, breakpoints: [Int])
    case output(String, category: String)
    case loadedSource(DebugSourceKey)
    case breakpointChanged(DebugBreakpointState)
    /// The program is ready for `setBreakpoints` and `configurationDone`.
    case ready(identifier: String, processID: Int32)
}

extension DebugProtocol {
    /// The SHA-256 of `bytes` in hex: how a breakpoint's file and a loaded module are compared.
    public static func digest(of bytes: [UInt8]) -> String {
        SHA256.hex(of: bytes)
    }
}

extension LiveProtocol {
    /// A program's end of the debug relay: `GET ?id=&identifier=&pid=` → an event stream of
    /// `debug` events, each a `DebugRequest`; `POST ?id=` with a `DebugMessage` as JSON.
    public static let debugProgramPath = "/v1/debug/program"
    /// A debugger's end: `GET ?program=` (the package identifier or the process id; optional
    /// when one program is connected) → an `attached` event naming the program (a
    /// `DebugAttachment`), then `debug` events, each a `DebugMessage`; `POST ?program=ID` with
    /// a `DebugRequest` as JSON (ID: the attachment's `id`).
    public static let debugClientPath = "/v1/debug/client"
    /// The session page's console: `POST ?program=` with `{"expression": "…"}` → `{"result":
    /// "…", "type": "…"}`, evaluated in the program's global environment at its next safe point.
    public static let debugEvaluatePath = "/v1/debug/evaluate"
    /// The event name of a debug message either way.
    public static let debugEvent = "debug"
    public static let debugAttachedEvent = "attached"
}

/// The program a debugger attached to through `flowpkg serve`.
public struct DebugAttachment: Codable, Sendable, Equatable {
    /// The program's `LiveProgram.id`.
    public var id: String
    public var identifier: String
    public var processID: Int32

    public init(id: String, identifier: String, processID: Int32) {
        self.id = id
        self.identifier = identifier
        self.processID = processID
    }
}
