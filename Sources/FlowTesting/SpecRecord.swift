import FlowLua
@_exported import struct FlowLiveProtocol.SpecFileResult
@_exported import struct FlowLiveProtocol.SpecRecord
@_exported import struct FlowLiveProtocol.TestOptions

extension SpecRecord {
    /// A record as the runner returned it.
    init?(_ value: LuaValue, file: String) {
        guard case .table(let fields) = value, let status = fields["status"]?.stringValue.flatMap(Status.init)
        else { return nil }
        self.init(
            status: status, name: fields["name"]?.stringValue ?? "",
            descriptor: fields["descriptor"]?.stringValue ?? "",
            file: fields["file"]?.stringValue ?? file, line: Self.integer(fields["line"]),
            message: fields["message"]?.stringValue, traceback: fields["traceback"]?.stringValue,
            failureFile: fields["failureFile"]?.stringValue, failureLine: Self.integer(fields["failureLine"]),
            duration: fields["duration"]?.doubleValue)
    }

    private static func integer(_ value: LuaValue?) -> Int? {
        switch value {
        case .integer(let number)?: return Int(number)
        case .number(let number)? where number.isFinite: return Int(number)
        default: return nil
        }
    }
}

/// A whole run: each file's records, in file order.
public struct TestReport: Sendable, Equatable {
    public var files: [SpecFileResult]
    /// The seed `--shuffle` and `randomize()` used.
    public var seed: Int64
    /// Wall-clock seconds of the run.
    public var duration: Double

    public init(files: [SpecFileResult], seed: Int64, duration: Double) {
        self.files = files
        self.seed = seed
        self.duration = duration
    }

    public var records: [SpecRecord] { files.flatMap(\.records) }

    public func count(_ status: SpecRecord.Status) -> Int { records.filter { $0.status == status }.count }

    /// Whether every test passed (or is pending) and nothing erred.
    public var succeeded: Bool {
        !records.contains { $0.status == .failure || $0.status == .error } && missingModule == nil
    }

    /// Every file's line hits added up, by chunk name without a leading `./`.
    public var lineHits: [String: [Int: Int]] {
        var total: [String: [Int: Int]] = [:]
        for file in files {
            for (chunk, hits) in file.lineHits {
                let name = chunk.hasPrefix("./") ? String(chunk.dropFirst(2)) : chunk
                total[name, default: [:]].merge(hits, uniquingKeysWith: +)
            }
        }
        return total
    }

    /// The first module a file could not find for busted's API, if any.
    public var missingModule: String? { files.lazy.compactMap(\.missingModule).first }
}
