import FlowLiveProtocol
import FlowPackage
import FlowSupport
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
}

/// What the server knows of every program that reported: bounded, so a chatty program cannot
/// fill the server's memory. Thread-safe.
final class ProgramSessions: Sendable {
    static let maxConsoleLines = 2000
    static let maxErrors = 100
    static let maxReloads = 100
    static let maxPrograms = 32

    struct ConsoleLine: Encodable, Sendable {
        var time: Double
        /// `stdout`, `stderr` or `log`.
        var stream: String
        var text: String
    }

    struct SourceLine: Encodable, Sendable {
        var number: Int
        var text: String
    }

    struct ErrorEntry: Encodable, Sendable {
        var time: Double
        var phase: String
        var text: String
        /// The project file it names, as a terminal shows it, and its absolute path (for links).
        var file: String?
        var path: String?
        var line: Int?
        /// Where a click on it goes: the developer's editor (`EditorLinks`).
        var link: String?
        /// When the module of `path` reloaded without an error since: the error is fixed.
        var fixed: Double?
        /// The lines around `line` in the file as it is now.
        var source: [SourceLine]
    }

    struct ReloadEntry: Encodable, Sendable {
        var time: Double
        var modules: [String]
        var resources: [String]
        var milliseconds: Double
    }

    struct Program: Encodable, Sendable {
        var program: LiveProgram
        var firstSeen: Double
        var lastSeen: Double
        /// When it ended its session, if it did (a later report starts it again).
        var ended: Double?
        var dropped = 0
        /// Console lines let go of to keep the console within `maxConsoleLines`.
        var consoleDropped = 0
        var console: [ConsoleLine] = []
        var errors: [ErrorEntry] = []
        var reloads: [ReloadEntry] = []
        /// The latest of each item, by kind and name.
        var loaded: [LiveLoadedItem] = []
    }

    private let root: URL
    private let paths: ProjectPaths
    /// The absolute path of a module's file, by module name, as the project has it now.
    private let moduleFile: @Sendable (String) -> String?
    private let link: @Sendable (String, Int) -> String
    private let programs = Locked([String: Program]())

    init(
        root: URL, paths: ProjectPaths? = nil,
        link: @escaping @Sendable (String, Int) -> String = { path, line in
            EditorLinks.vscode.href(path: path, line: line, column: nil, token: "")
        },
        moduleFile: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.root = root
        self.link = link
        self.paths = paths ?? ProjectPaths(root: root)
        self.moduleFile = moduleFile
    }

    /// Records a report; returns its events as the terminal shows them, in order.
    func receive(_ report: LiveReport) -> [SessionEvent] {
        let now = Date().timeIntervalSince1970
        var out: [SessionEvent] = []
        let program = report.program
        // Locations are looked up outside the lock: they read files.
        let paths = self.paths
        let located: [(path: String, line: Int, source: [SourceLine])?] = report.events.map { event in
            guard event.kind == .error, let text = event.text, let (path, line) = paths.location(in: text) else {
                return nil
            }
            return (path, line, sourceLines(path: path, around: line))
        }
        // What a reload ran again, by file: the errors those files had are fixed.
        let reloadedFiles: [Set<String>] = report.events.map { event in
            guard event.kind == .reload else { return [] }
            return Set((event.modules ?? []).compactMap(moduleFile))
        }
        programs.withLock { programs in
            if programs[program.id] == nil {
                // The same program started again (`flowpkg dev` after a crash) replaces the one
                // that ended.
                for (id, old) in programs
                where old.program.identifier == program.identifier && old.program.hostName == program.hostName
                    && (old.ended != nil || Self.isGone(old.program))
                {
                    programs[id] = nil
                }
                if programs.count >= Self.maxPrograms,
                    let oldest = programs.values.min(by: { $0.lastSeen < $1.lastSeen })
                {
                    programs[oldest.program.id] = nil
                }
                programs[program.id] = Program(program: program, firstSeen: now, lastSeen: now)
                out.append(SessionEvent(kind: .connected, program: program))
            }
            var state = programs[program.id]!
            state.program = program
            state.lastSeen = now
            state.ended = nil
            if report.dropped > state.dropped {
                state.dropped = report.dropped
                out.append(SessionEvent(kind: .dropped, program: program, dropped: report.dropped))
            }
            for ((event, location), reloaded) in zip(zip(report.events, located), reloadedFiles) {
                var session = SessionEvent(kind: .output, program: program, event: event)
                switch event.kind {
                case .output, .log:
                    session.kind = event.kind == .log ? .log : .output
                    let stream = event.kind == .log ? "log" : (event.stream ?? .stdout).rawValue
                    state.console.append(ConsoleLine(time: event.time, stream: stream, text: event.text ?? ""))
                case .error:
                    session.kind = .error
                    let text = paths.rewritten(event.text ?? "")
                    session.event?.text = text
                    session.file = location.map { paths.shown($0.path) }
                    session.line = location?.line
                    state.errors.append(
                        ErrorEntry(
                            time: event.time, phase: (event.phase ?? .run).rawValue, text: text,
                            file: session.file, path: location?.path, line: location?.line,
                            link: location.map { link($0.path, $0.line) }, source: location?.source ?? []))
                case .reload:
                    session.kind = .reload
                    for index in state.errors.indices
                    where state.errors[index].fixed == nil && state.errors[index].path.map(reloaded.contains) == true {
                        state.errors[index].fixed = event.time
                    }
                    state.reloads.append(
                        ReloadEntry(
                            time: event.time, modules: event.modules ?? [], resources: event.resources ?? [],
                            milliseconds: event.milliseconds ?? 0))
                case .ended:
                    session.kind = .ended
                    state.ended = event.time
                case .loaded:
                    session.kind = .loaded
                    for item in event.items ?? [] {
                        if let index = state.loaded.firstIndex(where: { $0.kind == item.kind && $0.name == item.name })
                        {
                            state.loaded[index] = item
                        } else {
                            state.loaded.append(item)
                        }
                    }
                }
                out.append(session)
            }
            state.consoleDropped += max(0, state.console.count - Self.maxConsoleLines)
            Self.trim(&state.console, to: Self.maxConsoleLines)
            Self.trim(&state.errors, to: Self.maxErrors)
            Self.trim(&state.reloads, to: Self.maxReloads)
            programs[program.id] = state
        }
        return out
    }

    /// Every program, the most recently heard first.
    var all: [Program] {
        // A program of this machine whose process is gone (os.exit, a crash) ended its session
        // without saying so: shown as disconnected from when it was last heard.
        programs.withLock { Array($0.values) }.map { program in
            var program = program
            if program.ended == nil, Self.isGone(program.program) { program.ended = program.lastSeen }
            return program
        }.sorted { $0.lastSeen > $1.lastSeen }
    }

    /// This machine's name, as a program on it reports it.
    private static let machineName: String = {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Whether `program` ran on this machine and its process no longer exists.
    static func isGone(_ program: LiveProgram) -> Bool {
        guard !machineName.isEmpty, program.hostName == machineName, program.processID > 0 else { return false }
        return kill(program.processID, 0) != 0 && errno == ESRCH
    }

    private static func trim<T>(_ list: inout [T], to limit: Int) {
        if list.count > limit { list.removeFirst(list.count - limit) }
    }

    private func sourceLines(path: String, around line: Int) -> [SourceLine] {
        guard let data = FileManager.default.contents(atPath: path),
            data.count <= 8 << 20
        else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let first = max(1, line - 3), last = min(lines.count, line + 3)
        guard first <= last else { return [] }
        return (first...last).map { SourceLine(number: $0, text: LiveEvent.capped(String(lines[$0 - 1]))) }
    }
}
