/// What `flowpkg test` was asked to run and how, beyond which files. On the live channel too: a
/// `LiveTestRequest` carries it to the program that runs the specs (`flowpkg test --live`).
public struct TestOptions: Sendable, Equatable, Codable {
    /// Lua patterns a test's full name must match one of (`--filter`).
    public var filter: [String] = []
    /// Lua patterns whose matches are left out (`--filter-out`).
    public var filterOut: [String] = []
    /// Only tests whose full name holds one of these `#tags` (`--tags`, `.busted`'s `tags`).
    public var tags: [String] = []
    /// Tests and blocks whose name holds one of these `#tags` are left out.
    public var excludeTags: [String] = []
    /// Files, and the tests of each block, in an order drawn from `seed`.
    public var shuffle = false
    /// The seed `--shuffle` and `randomize()` use; nil draws one.
    public var seed: Int64?
    /// Name the tests, file:line first, without running them.
    public var list = false
    /// Stop at the first failure or error: no new file starts, and its file stops.
    public var failFast = false
    /// Seconds one file may run before it is stopped and reported.
    public var timeout: Double = 60
    /// `--shard K/N`: only the files whose index modulo N is K-1.
    public var shard: Shard?
    /// Searched before the project's modules, as busted's `lpath` is.
    public var lpath = TestOptions.defaultLPath
    /// A file or module run before each spec file (`.busted`'s `helper`).
    public var helper: String?
    /// How many files run at once; nil uses every core.
    public var jobs: Int?
    /// The program specs see as `arg[-1]`, as busted's see the Lua interpreter (penlight's
    /// `app.lua()` runs it); `arg[0]` is the spec file.
    public var interpreter: String?
    /// Count the lines each file runs (a C line hook): `SpecFileResult.lineHits`.
    public var coverage = false
    /// A debugger drives the run (`flowpkg dap` launched a spec file): its hooks are the only
    /// ones, so no time limit (`timeout`) watches the file.
    public var debugged = false
    /// The files whose lines `coverage` counts (the project's own modules), relative to the
    /// project folder.
    public var coverageFiles: [String] = []

    /// busted's own `lpath`.
    public static let defaultLPath = "./src/?.lua;./src/?/?.lua;./src/?/init.lua"

    public init() {}

    /// One of N parts of the spec files.
    public struct Shard: Sendable, Equatable, Codable {
        /// 1...count.
        public var index: Int
        public var count: Int

        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }

        /// `2/8`, or nil with the reason it is not one.
        public static func parse(_ text: String) -> Result<Shard, ShardError> {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
                return .failure(ShardError(text: text, reason: "write it as K/N, like 2/8"))
            }
            guard count >= 1, (1...count).contains(index) else {
                return .failure(ShardError(text: text, reason: "K must be between 1 and N"))
            }
            return .success(Shard(index: index, count: count))
        }
    }

    /// Why a `--shard` value was refused.
    public struct ShardError: Error, CustomStringConvertible {
        public var text: String
        public var reason: String
        public var description: String { "'\(text)' is not a shard: \(reason)" }
    }
}
