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
                out.append(record(event, of: program, location: location, reloaded: reloaded, in: &state))
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

    /// Records one event of `program`'s report in its `state`; returns it as the terminal shows it.
    private func record(
        _ event: LiveEvent, of program: LiveProgram, location: (path: String, line: Int, source: [SourceLine])?,
        reloaded: Set<String>, in state: inout Program
    ) -> SessionEvent {
        var session = SessionEvent(kind: .output, program: program, event: event)
        switch event.kind {
        case .output, .log, .test:
            session.kind = event.kind == .log ? .log : event.kind == .test ? .test : .output
            let stream = event.kind == .output ? (event.stream ?? .stdout).rawValue : event.kind.rawValue
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
        return session
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
