import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One thing a program told the server, as `flowpkg serve` prints it and the session page
/// lists it: the program, what happened, and for an error the project file and line it names.
public struct SessionEvent: Sendable, Encodable {
    public enum Kind: String, Sendable, Encodable {
        /// The first report of a program.
        case connected
        case output, log, error, reload, loaded
        /// The program's buffer overflowed: `dropped` events never reached the server.
        case dropped
        /// The program stopped its session.
        case ended
        /// A line about a test run in the program (`flowpkg test --live`, dev's `t` key).
        case test
    }

    public var kind: Kind
    public var program: LiveProgram
    /// What the program sent (nil for `connected` and `dropped`).
    public var event: LiveEvent?
    /// For an error: the project file and line it names first, as a terminal shows it
    /// (relative to the current folder, `ProjectPaths`).
    public var file: String?
    public var line: Int?
    /// For `dropped`: how many events were dropped in all so far.
    public var dropped: Int?

    enum CodingKeys: String, CodingKey {
        case kind, program, time, stream, text, phase, modules, resources, milliseconds, items, file, line, dropped
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(program, forKey: .program)
        try container.encodeIfPresent(event?.time, forKey: .time)
        try container.encodeIfPresent(event?.stream, forKey: .stream)
        try container.encodeIfPresent(event?.text, forKey: .text)
        try container.encodeIfPresent(event?.phase, forKey: .phase)
        try container.encodeIfPresent(event?.modules, forKey: .modules)
        try container.encodeIfPresent(event?.resources, forKey: .resources)
        try container.encodeIfPresent(event?.milliseconds, forKey: .milliseconds)
        try container.encodeIfPresent(event?.items, forKey: .items)
        try container.encodeIfPresent(file, forKey: .file)
        try container.encodeIfPresent(line, forKey: .line)
        try container.encodeIfPresent(dropped, forKey: .dropped)
    }

    /// One line for a terminal: the program first; an error starts with `file:line:` so
    /// editors and terminals can jump to it, and names the program at its end.
    public var text: String {
        // What a program sends is escaped as serve's log escapes requests: a printed line
        // cannot forge another or drive the terminal (`--format json` shows it as it was).
        let who = LogText.escaped("\(program.identifier)[\(program.processID)]")
        switch kind {
        case .connected:
            return "\(who): connected from \(LogText.escaped(program.hostName)) (\(LogText.escaped(program.platform)))"
                + (program.version.map { ", version \(LogText.escaped($0))" } ?? "")
        case .output, .log:
            let marker = event?.stream == .stderr ? " stderr" : event?.kind == .log ? " log" : ""
            return "\(who)\(marker): \(LogText.escaped(event?.text ?? ""))"
        case .error:
            let firstLine = (event?.text ?? "").split(separator: "\n", omittingEmptySubsequences: false).first
            let message = LogText.escaped(firstLine.map(String.init) ?? "")
            let phase = event?.phase.map { " while \(Self.phaseWords($0))" } ?? ""
            if let file, let line {
                return
                    "\(file):\(line): error: \(Self.withoutLocation(message, file: file, line: line)) (\(who)\(phase))"
            }
            return "error: \(message) (\(who)\(phase))"
        case .reload:
            let names = ((event?.modules ?? []) + (event?.resources ?? [])).map(LogText.escaped)
            return "\(who): reloaded \(names.joined(separator: ", ")) in "
                + String(printf: "%.1f", event?.milliseconds ?? 0) + " ms"
        case .loaded:
            let items = event?.items ?? []
            return "\(who): loaded "
                + items.map {
                    "\($0.kind.rawValue) \(LogText.escaped($0.name)) <- \(LogText.escaped($0.source)) (\($0.size) bytes)"
                }.joined(separator: ", ")
        case .dropped:
            return "\(who): \(dropped ?? 0) events dropped so far: the program wrote faster than they could be sent"
        case .ended:
            return "\(who): ended its session"
        case .test:
            return "\(who) test: \(LogText.escaped(event?.text ?? ""))"
        }
    }

    static func phaseWords(_ phase: LiveEvent.Phase) -> String {
        switch phase {
        case .start: return "starting"
        case .reload: return "reloading"
        case .delivery: return "delivering a resource"
        case .run: return "running"
        }
    }

    /// The message with the first `file:line:` it names taken out (the line starts with it).
    static func withoutLocation(_ message: String, file: String, line: Int) -> String {
        let location = "\(file):\(line):"
        guard let range = message.firstRange(of: location) else { return message }
        let before = message[..<range.lowerBound].trimmingSpaces()
        let after = message[range.upperBound...].trimmingSpaces()
        if before.isEmpty { return after }
        return before.hasSuffix(":") ? "\(before) \(after)" : "\(before): \(after)"
    }

    /// How much of an error's text is searched for a location: the place is in its first
    /// lines, and a 1 MB report full of `X.lua:1` took 33 s when every byte was searched.
    static let locationSearchBytes = 16 << 10
    /// A path longer than this is no project file's.
    static let maximumPathBytes = 1024
    /// Candidates asked of `exists` (which reads the file system) at most.
    static let maximumLocationCandidates = 16

    /// The first `path.lua:LINE:` in `text` whose path `exists` says is a project file: looked
    /// for in the first `locationSearchBytes` only, in one pass, with at most
    /// `maximumLocationCandidates` paths asked about.
    static func location(in text: String, exists: (String) -> Bool) -> (file: String, line: Int)? {
        let bytes = Array(text.utf8.prefix(locationSearchBytes))
        let marker = Array(".lua:".utf8)
        var asked = 0
        // Where the current path began: after the latest separator, found as the scan goes,
        // so no byte is looked at more than a few times.
        var pathStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "'"), UInt8(ascii: "\""),
                UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "<"):
                pathStart = index + 1
                index += 1
                continue
            default:
                break
            }
            guard byte == UInt8(ascii: "."), index + marker.count <= bytes.count,
                bytes[index..<(index + marker.count)].elementsEqual(marker)
            else {
                index += 1
                continue
            }
            var digitsEnd = index + marker.count
            while digitsEnd < bytes.count, digitsEnd - index - marker.count < 10,
                bytes[digitsEnd] >= UInt8(ascii: "0"), bytes[digitsEnd] <= UInt8(ascii: "9")
            {
                digitsEnd += 1
            }
            let pathEnd = index + 4
            if digitsEnd > index + marker.count, pathEnd - pathStart <= maximumPathBytes,
                let line = Int(String(decoding: bytes[(index + marker.count)..<digitsEnd], as: UTF8.self))
            {
                asked += 1
                let path = String(decoding: bytes[pathStart..<pathEnd], as: UTF8.self)
                if exists(path) { return (path, line) }
                if asked >= maximumLocationCandidates { return nil }
            }
            index += marker.count
        }
        return nil
    }
}
