/// `--format json`: busted's JSON output (`-o json`), its four lists and its fields, from a run.
public struct BustedJSON: Encodable, Sendable {
    public var successes: [Entry] = []
    public var failures: [Entry] = []
    public var errors: [Entry] = []
    public var pendings: [Entry] = []
    public var duration: Double

    /// One test, or one error outside the tests, as busted's base output handler formats it.
    public struct Entry: Encodable, Sendable {
        public var name: String
        public var message: String?
        public var isError: Bool?
        public var randomseed: Int64?
        public var trace: Trace
        public var element: Element
    }

    public struct Trace: Encodable, Sendable {
        public var short_src: String
        public var currentline: Int
        public var traceback: String?
    }

    public struct Element: Encodable, Sendable {
        public var name: String
        public var descriptor: String
        public var duration: Double?
        public var trace: Trace
    }

    public init(_ report: TestReport, shuffled: Bool) {
        duration = report.duration
        for record in report.records {
            let declared = Trace(short_src: record.file, currentline: record.line ?? 0)
            let trace =
                record.failureFile.map {
                    Trace(short_src: $0, currentline: record.failureLine ?? 0, traceback: record.traceback)
                } ?? declared
            let entry = Entry(
                name: record.name, message: record.message, isError: record.status == .error ? true : nil,
                randomseed: shuffled ? report.seed : nil, trace: trace,
                element: Element(
                    name: record.name, descriptor: record.descriptor, duration: record.duration, trace: declared))
            switch record.status {
            case .success, .listed: successes.append(entry)
            case .failure: failures.append(entry)
            case .error: errors.append(entry)
            case .pending: pendings.append(entry)
            }
        }
    }
}
