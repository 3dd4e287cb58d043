/// The test channel: `flowpkg test --live` (or `flowpkg dev`'s `t` key) asks `flowpkg serve` to
/// have a program that follows it run spec files, and reads the results as they come.
///
/// The asker POSTs a `LiveTestRequest` to `testRunPath` and reads the answer, an event stream
/// of `test` events, each a `LiveTestMessage`, until `finished` or `refused`. A program keeps
/// `testProgramPath` open (GET, an event stream of `test` events, each a `LiveTestRequest`)
/// and POSTs each `LiveTestMessage` back to it with `?id=` (its own) and `?run=` (the run's).
/// Every request carries the live token, as every other request does.
extension LiveProtocol {
    /// `POST ?program=` a `LiveTestRequest` → `text/event-stream` of `testEvent`s.
    public static let testRunPath = "/v1/test"
    /// `GET ?id=&identifier=&pid=` → the program's stream of requests; `POST ?id=&run=` a message.
    public static let testProgramPath = "/v1/test/program"
    /// The SSE event name of a test request or message.
    public static let testEvent = "test"
    /// The most bytes of a request's files and modules together: it is one POST body, which
    /// `flowpkg serve` takes up to 1 MB of, JSON's escapes included.
    public static let maxTestRequestBytes = 768 << 10
}

/// One run of spec files in a program: which files, how, and the Lua text the program lacks
/// (the spec folders' files and the dev dependencies, which a program's package never holds).
public struct LiveTestRequest: Codable, Sendable, Equatable {
    /// Random, made by the asker: names the run in the program's messages.
    public var run: String
    /// The spec files in the order they run, relative to the project folder.
    public var files: [String]
    public var options: TestOptions
    /// The files a spec may load by path relative to the project folder (the spec files, their
    /// helpers, `.busted`'s helper): read from here, not from the program's file system.
    public var sources: [File]
    /// Modules required by name that the live source does not serve (luassert, say).
    public var modules: [Module]

    /// A Lua file by its path relative to the project folder.
    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var text: String

        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }
    }

    /// A module by its name, with the chunk name its errors show.
    public struct Module: Codable, Sendable, Equatable {
        public var name: String
        public var chunk: String
        public var text: String

        public init(name: String, chunk: String, text: String) {
            self.name = name
            self.chunk = chunk
            self.text = text
        }
    }

    public init(run: String, files: [String], options: TestOptions, sources: [File], modules: [Module]) {
        self.run = run
        self.files = files
        self.options = options
        self.sources = sources
        self.modules = modules
    }

    /// The bytes of Lua text it carries.
    public var textBytes: Int {
        sources.reduce(0) { $0 + $1.text.utf8.count } + modules.reduce(0) { $0 + $1.text.utf8.count }
    }
}

/// What comes back from a test run, in order: `started`, a `file` as each spec file ends, then
/// `finished`; or `refused` at any point (no program, the program went away).
public enum LiveTestMessage: Codable, Sendable, Equatable {
    /// The program took the run.
    case started(LiveProgram)
    /// One spec file ended.
    case file(SpecFileResult)
    /// Every file ended: the seed `--shuffle` and `randomize()` used, and the run's seconds.
    case finished(seed: Int64, duration: Double)
    /// The run did not happen, or did not end: why.
    case refused(String)

    /// Whether nothing comes after it.
    public var isLast: Bool {
        switch self {
        case .finished, .refused: return true
        case .started, .file: return false
        }
    }
}
