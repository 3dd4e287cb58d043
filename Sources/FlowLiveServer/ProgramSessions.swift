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

/// What the server knows of every program that reported: bounded, so a chatty program cannot
/// fill the server's memory. Thread-safe.
final class ProgramSessions: Sendable {
    static let maxConsoleLines = 2000
    static let maxErrors = 100
    static let maxReloads = 100
    static let maxPrograms = 32
    /// Loaded modules and resources remembered per program (the latest of each).
    static let maxLoadedItems = 4096
    /// Bytes of text (console, errors, reloads, loaded items) kept for all programs together:
    /// 32 programs × 2,000 lines × 16 KB would be 1 GB, and every page poll encodes all of it.
    /// Past it the oldest entries of the largest program go, and its `discarded` counts them.
    static let maxStoredBytes = 4 << 20

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
        /// Entries the server let go to stay within `maxStoredBytes` (or `maxLoadedItems`).
        var discarded = 0
        /// What its entries take, as `maxStoredBytes` counts it.
        var storedBytes = 0
        /// Where each loaded item is in `loaded`, by kind and name.
        var loadedIndex: [String: Int] = [:]

        enum CodingKeys: String, CodingKey {
            case program, firstSeen, lastSeen, ended, dropped, consoleDropped, console, errors, reloads, loaded
            case discarded
        }
    }

    /// What an entry takes in `maxStoredBytes`: its text and a little for the rest.
    static func size(_ line: ConsoleLine) -> Int { line.text.utf8.count + line.stream.utf8.count + 32 }
    static func size(_ entry: ErrorEntry) -> Int {
        entry.text.utf8.count + entry.phase.utf8.count + (entry.file?.utf8.count ?? 0) + 48
            + entry.source.reduce(0) { $0 + $1.text.utf8.count + 16 }
    }
    static func size(_ entry: ReloadEntry) -> Int {
        entry.modules.reduce(0) { $0 + $1.utf8.count + 4 } + entry.resources.reduce(0) { $0 + $1.utf8.count + 4 } + 32
    }
    static func size(_ item: LiveLoadedItem) -> Int { item.name.utf8.count + item.source.utf8.count + 48 }

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
        // Locations are looked up outside the lock: they read files (each file once a report).
        let paths = self.paths
        var files: [String: [Substring]] = [:]
        let located: [(path: String, line: Int, source: [SourceLine])?] = report.events.map { event in
            guard event.kind == .error, let text = event.text, let (path, line) = paths.location(in: text) else {
                return nil
            }
            if files[path] == nil { files[path] = Self.fileLines(path) }
            return (path, line, Self.sourceLines(files[path] ?? [], around: line))
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
            var state = programs[program.id] ?? Program(program: program, firstSeen: now, lastSeen: now)
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
                    let line = ConsoleLine(time: event.time, stream: stream, text: event.text ?? "")
                    state.storedBytes += Self.size(line)
                    state.console.append(line)
                case .error:
                    session.kind = .error
                    let text = paths.rewritten(event.text ?? "")
                    session.event?.text = text
                    session.file = location.map { paths.shown($0.path) }
                    session.line = location?.line
                    let entry = ErrorEntry(
                        time: event.time, phase: (event.phase ?? .run).rawValue, text: text,
                        file: session.file, path: location?.path, line: location?.line,
                        link: location.map { link($0.path, $0.line) }, source: location?.source ?? [])
                    state.storedBytes += Self.size(entry)
                    state.errors.append(entry)
                case .reload:
                    session.kind = .reload
                    for index in state.errors.indices
                    where state.errors[index].fixed == nil && state.errors[index].path.map(reloaded.contains) == true {
                        state.errors[index].fixed = event.time
                    }
                    let entry = ReloadEntry(
                        time: event.time, modules: event.modules ?? [], resources: event.resources ?? [],
                        milliseconds: event.milliseconds ?? 0)
                    state.storedBytes += Self.size(entry)
                    state.reloads.append(entry)
                case .ended:
                    session.kind = .ended
                    state.ended = event.time
                case .loaded:
                    session.kind = .loaded
                    for item in event.items ?? [] {
                        let key = item.kind.rawValue + "\u{0}" + item.name
                        if let index = state.loadedIndex[key] {
                            state.storedBytes += Self.size(item) - Self.size(state.loaded[index])
                            state.loaded[index] = item
                        } else if state.loaded.count < Self.maxLoadedItems {
                            state.loadedIndex[key] = state.loaded.count
                            state.storedBytes += Self.size(item)
                            state.loaded.append(item)
                        } else {
                            state.discarded += 1
                        }
                    }
                }
                out.append(session)
            }
            state.consoleDropped += max(0, state.console.count - Self.maxConsoleLines)
            state.storedBytes -= Self.trim(&state.console, to: Self.maxConsoleLines, size: Self.size)
            state.storedBytes -= Self.trim(&state.errors, to: Self.maxErrors, size: Self.size)
            state.storedBytes -= Self.trim(&state.reloads, to: Self.maxReloads, size: Self.size)
            programs[program.id] = state
            Self.keepWithinBudget(&programs)
        }
        return out
    }

    /// Lets the oldest entries of the largest program go until all programs together keep at
    /// most `maxStoredBytes`; each program counts what it lost in `discarded`.
    static func keepWithinBudget(_ programs: inout [String: Program], budget: Int = maxStoredBytes) {
        var total = programs.values.reduce(0) { $0 + $1.storedBytes }
        while total > budget,
            let (largest, held) = programs.max(by: { $0.value.storedBytes < $1.value.storedBytes })
        {
            var state = held
            let before = state.storedBytes
            // At most a quarter of what it holds at a time, oldest first, so that the programs
            // end up sharing the budget rather than the largest losing everything.
            var freed = 0
            let goal = min(total - budget, max(1, state.storedBytes / 4))
            var console = 0
            while freed < goal, console < state.console.count {
                freed += size(state.console[console])
                console += 1
            }
            var errors = 0
            while freed < goal, errors < state.errors.count {
                freed += size(state.errors[errors])
                errors += 1
            }
            var reloads = 0
            while freed < goal, reloads < state.reloads.count {
                freed += size(state.reloads[reloads])
                reloads += 1
            }
            state.console.removeFirst(console)
            state.consoleDropped += console
            state.errors.removeFirst(errors)
            state.reloads.removeFirst(reloads)
            var lost = console + errors + reloads
            if freed < goal, !state.loaded.isEmpty {
                lost += state.loaded.count
                freed += state.loaded.reduce(0) { $0 + size($1) }
                state.loaded = []
                state.loadedIndex = [:]
            }
            state.storedBytes -= freed
            state.discarded += lost
            programs[largest] = state
            total -= before - state.storedBytes
            if lost == 0 { break }
        }
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

    /// Drops the oldest past `limit`; returns the bytes they took.
    private static func trim<T>(_ list: inout [T], to limit: Int, size: (T) -> Int) -> Int {
        guard list.count > limit else { return 0 }
        let freed = list.prefix(list.count - limit).reduce(0) { $0 + size($1) }
        list.removeFirst(list.count - limit)
        return freed
    }

    private static func fileLines(_ path: String) -> [Substring] {
        guard let data = FileManager.default.contents(atPath: path),
            data.count <= 8 << 20
        else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    private static func sourceLines(_ lines: [Substring], around line: Int) -> [SourceLine] {
        let first = max(1, line - 3), last = min(lines.count, line + 3)
        guard first <= last else { return [] }
        return (first...last).map { SourceLine(number: $0, text: LiveEvent.capped(String(lines[$0 - 1]))) }
    }
}
