#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The channel's other direction: what a running program sends back to `flowpkg serve`.
///
/// A program POSTs a `LiveReport` (JSON) to `reportPath` with the same bearer token as every
/// other request; the server answers 204, or 400/401/413 with `{"error": "…"}`. The session
/// page and its state are served under `sessionPagePath` and `sessionStatePath`.
extension LiveProtocol {
    /// `POST` a `LiveReport` as JSON.
    public static let reportPath = "/v1/report"
    /// `GET ?token=…` → the session page (HTML, scripts and styles inline).
    public static let sessionPagePath = "/session"
    /// `GET` → the session's state as JSON, what the page shows.
    public static let sessionStatePath = "/v1/session"
    /// The most bytes of one output line, one error message or traceback: longer text is cut.
    public static let maxLineBytes = 16 * 1024
    /// The most bytes of one report's body; a larger report is refused.
    public static let maxReportBytes = 1 << 20
    /// The most events in one report; a report with more is refused.
    public static let maxReportEvents = 4096
}

/// Who is talking: one running program, from its start to its exit.
public struct LiveProgram: Codable, Sendable, Equatable, Hashable {
    /// Random, made once per process: tells two runs of the same package apart.
    public var id: String
    public var identifier: String
    public var version: String?
    /// The package's digest, when an embedded package serves.
    public var digest: String?
    public var hostName: String
    /// `Linux x86_64`, `iOS 18.0`, …
    public var platform: String
    public var processID: Int32

    public init(
        id: String = UUID().uuidString, identifier: String, version: String? = nil, digest: String? = nil,
        hostName: String, platform: String, processID: Int32
    ) {
        self.id = id
        self.identifier = identifier
        self.version = version
        self.digest = digest
        self.hostName = hostName
        self.platform = platform
        self.processID = processID
    }

    /// How the developer's terminal names it: `com.example.app (pid 4242 on mac.local)`.
    public var label: String { "\(identifier) (pid \(processID) on \(hostName))" }
}

/// One module or resource the program loaded, where from, and what it was.
public struct LiveLoadedItem: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case module, resource }

    public var kind: Kind
    /// A module name (`Foo.Bar`), or a resource as `name.type`.
    public var name: String
    /// `live`, `embedded`, `update`, or `folder` (`flowpkg run DIR`).
    public var source: String
    public var size: Int
    public var sha256: String
    /// Seconds since 1970 when it was (last) loaded.
    public var loadedAt: Double

    public init(kind: Kind, name: String, source: String, size: Int, sha256: String, loadedAt: Double) {
        self.kind = kind
        self.name = name
        self.source = source
        self.size = size
        self.sha256 = sha256
        self.loadedAt = loadedAt
    }
}

/// One thing that happened in the program. Which fields are set depends on `kind`.
public struct LiveEvent: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// A line of output: `stream` and `text`.
        case output
        /// A line the host logged itself (`LiveSession.post(log:)`): `text`.
        case log
        /// An error: `phase` and `text` (the message, with its traceback).
        case error
        /// Modules and resources loaded again: `modules`, `resources`, `milliseconds`.
        case reload
        /// Items loaded for the first time or again: `items`.
        case loaded
        /// The program stopped its session (it is exiting): nothing more comes from it.
        case ended
        /// A line about a test run in the program (`flowpkg test --live`): `text`.
        case test
    }

    public enum Stream: String, Codable, Sendable { case stdout, stderr }

    /// Where an error happened.
    public enum Phase: String, Codable, Sendable {
        /// Loading or running the start module.
        case start
        /// Reloading modules after a change.
        case reload
        /// Delivering a changed resource.
        case delivery
        /// In a handler, or reported by the host.
        case run
    }

    public var kind: Kind
    /// Seconds since 1970 when it happened in the program.
    public var time: Double
    public var stream: Stream?
    public var text: String?
    public var phase: Phase?
    public var modules: [String]?
    public var resources: [String]?
    public var milliseconds: Double?
    public var items: [LiveLoadedItem]?

    public init(
        kind: Kind, time: Double = Date().timeIntervalSince1970, stream: Stream? = nil, text: String? = nil,
        phase: Phase? = nil, modules: [String]? = nil, resources: [String]? = nil, milliseconds: Double? = nil,
        items: [LiveLoadedItem]? = nil
    ) {
        self.kind = kind
        self.time = time
        self.stream = stream
        self.text = text
        self.phase = phase
        self.modules = modules
        self.resources = resources
        self.milliseconds = milliseconds
        self.items = items
    }

    /// The event's texts within `LiveProtocol.maxLineBytes`, or why not.
    public var problem: String? {
        if let text, text.utf8.count > LiveProtocol.maxLineBytes {
            return "a \(kind.rawValue) event's text is \(text.utf8.count) bytes, more than \(LiveProtocol.maxLineBytes)"
        }
        switch kind {
        case .output where stream == nil || text == nil: return "an output event needs stream and text"
        case .log where text == nil: return "a log event needs text"
        case .test where text == nil: return "a test event needs text"
        case .error where text == nil: return "an error event needs text"
        case .loaded where items == nil: return "a loaded event needs items"
        default: return nil
        }
    }

    /// `text` cut to at most `LiveProtocol.maxLineBytes` bytes on a character boundary.
    public static func capped(_ text: String) -> String {
        guard text.utf8.count > LiveProtocol.maxLineBytes else { return text }
        var bytes = Array(text.utf8.prefix(LiveProtocol.maxLineBytes - 40))
        // Never end inside a UTF-8 sequence: drop continuation bytes, then their lead byte.
        while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
        if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self) + " … [cut at \(LiveProtocol.maxLineBytes) bytes]"
    }
}

/// What one POST carries: who sends, how many events it had to drop since it started, and
/// the events in the order they happened.
public struct LiveReport: Codable, Sendable, Equatable {
    public var program: LiveProgram
    /// Events dropped so far because the program's buffer was full (the oldest go first).
    public var dropped: Int
    public var events: [LiveEvent]

    public init(program: LiveProgram, dropped: Int, events: [LiveEvent]) {
        self.program = program
        self.dropped = dropped
        self.events = events
    }
}
