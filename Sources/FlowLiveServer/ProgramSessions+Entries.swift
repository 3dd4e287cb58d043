import FlowLiveProtocol

/// What a program's session keeps, and what each entry counts for in `maxStoredBytes`.
extension ProgramSessions {
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
}
