/// One outcome of a spec file, in the order busted reports them: a test that passed, failed,
/// erred or is pending, or an error outside any test (in a `describe` body, a hook, loading
/// the file). Full names repeat within a suite, so a run is a list of these, not a map. A program
/// running specs for `flowpkg test --live` sends them back as they are (`LiveTestMessage`).
public struct SpecRecord: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        case success, failure, error, pending
        /// `--list`: named, not run.
        case listed
    }

    public var status: Status
    /// The `describe` chain and the test's name, joined by spaces (busted's full name).
    public var name: String
    /// `it` for a test, `pending` for one declared pending, else where an error came from
    /// (`describe`, `before_each`, `file`, `helper`, ...).
    public var descriptor: String
    /// Where the test or block is declared (its file as busted shows it, relative to the project).
    public var file: String
    public var line: Int?
    /// The failure's or error's message, `file:line: ` first; a pending test's reason.
    public var message: String?
    public var traceback: String?
    /// Where it failed, when it did.
    public var failureFile: String?
    public var failureLine: Int?
    /// Seconds the test took, for a test that ran.
    public var duration: Double?

    public init(
        status: Status, name: String, descriptor: String, file: String, line: Int? = nil, message: String? = nil,
        traceback: String? = nil, failureFile: String? = nil, failureLine: Int? = nil, duration: Double? = nil
    ) {
        self.status = status
        self.name = name
        self.descriptor = descriptor
        self.file = file
        self.line = line
        self.message = message
        self.traceback = traceback
        self.failureFile = failureFile
        self.failureLine = failureLine
        self.duration = duration
    }

    /// Whether this is a test's own outcome, not an error around the tests.
    public var isTest: Bool { descriptor == "it" || descriptor == "pending" }
}

/// What one spec file gave.
public struct SpecFileResult: Sendable, Equatable, Codable {
    /// The file as shown (relative to the project).
    public var file: String
    public var records: [SpecRecord]
    /// Why the file stopped before its end: `timeout`, `exit` or `failfast`.
    public var stopped: String?
    /// A module busted's API needs and the project lacks (`luassert`), with Lua's message.
    public var missingModule: String?
    public var missingMessage: String?
    /// With `--coverage`: hits of each line run, by chunk name (`src/calc.lua`, `./src/calc.lua`).
    public var lineHits: [String: [Int: Int]] = [:]
    /// What the file's run required: module names, and the files lpath's searcher loaded them
    /// from (`./src/calc.lua`), in order; `--watch`'s `RequireGraph` is made of these.
    public var reached: [String] = []

    public init(
        file: String, records: [SpecRecord], stopped: String? = nil, missingModule: String? = nil,
        missingMessage: String? = nil
    ) {
        self.file = file
        self.records = records
        self.stopped = stopped
        self.missingModule = missingModule
        self.missingMessage = missingMessage
    }
}
