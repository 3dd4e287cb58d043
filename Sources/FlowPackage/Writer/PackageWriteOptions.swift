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

/// How a package is written: the entry time, and the hooks a caller uses to show progress
/// and to cancel.
public struct PackageWriteOptions: Sendable {
    /// The modification time of every entry, in seconds since 1970 (UTC).
    public var timestamp: Int64
    /// Called now and then, from any thread, with the phase and the bytes it has done; each
    /// phase's last call has `done == total`.
    public var progress: (@Sendable (PackageWriteProgress) -> Void)?
    /// Checked between chunks; once cancelled, the writer stops, removes its temporary file
    /// and throws `PackageError.cancelled`.
    public var cancellation: PackageCancellation?
    /// Signs `manifest.json` with this key and stores the signature as the second entry,
    /// `manifest.sig`; nil writes an unsigned package.
    public var signingKey: PackageSigningKey? = nil

    public init(
        timestamp: Int64 = PackageWriteOptions.defaultTimestamp,
        progress: (@Sendable (PackageWriteProgress) -> Void)? = nil,
        cancellation: PackageCancellation? = nil
    ) {
        self.timestamp = timestamp
        self.progress = progress
        self.cancellation = cancellation
    }

    /// 1980-01-01T00:00:00Z, the earliest time a zip's MS-DOS fields can hold: the entry time
    /// when `SOURCE_DATE_EPOCH` is not set.
    public static let defaultTimestamp: Int64 = 315_532_800
    /// 2107-12-31T23:59:58Z, the latest time the MS-DOS fields can hold.
    public static let latestTimestamp: Int64 = 4_354_819_198

    /// Why a `SOURCE_DATE_EPOCH` value is not usable.
    public struct TimestampError: Error, Equatable, CustomStringConvertible, Sendable {
        public var value: String
        public var description: String {
            "SOURCE_DATE_EPOCH is '\(value)'; it must be a whole number of seconds since 1970 (see reproducible-builds.org)"
        }
    }

    /// The entry time the reproducible-builds convention asks for: `SOURCE_DATE_EPOCH` when
    /// the environment sets it (clamped to the years a zip can hold), else the fixed default.
    public static func timestamp(environment: [String: String]) throws(TimestampError) -> Int64 {
        guard let text = environment["SOURCE_DATE_EPOCH"]?.trimmingSpaces(), !text.isEmpty else {
            return defaultTimestamp
        }
        guard text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int64(text) else {
            throw TimestampError(value: text)
        }
        return min(max(value, defaultTimestamp), latestTimestamp)
    }
}

/// A flag a caller sets (from a signal handler's queue, another thread) to stop a write.
public final class PackageCancellation: Sendable {
    private let cancelled = Locked(false)

    public init() {}

    public func cancel() {
        cancelled.withLock { $0 = true }
    }

    public var isCancelled: Bool {
        cancelled.withLock { $0 }
    }
}

/// How far a package write has come, for a progress display.
public struct PackageWriteProgress: Sendable, Equatable {
    /// The writer's two passes over the inputs, in the order they run.
    public enum Phase: String, Sendable, CaseIterable {
        /// Reading and hashing every input: the sizes and digests the manifest lists.
        case hashing
        /// Compressing and writing every entry, each read again and checked against its hash.
        case writing
    }

    public var phase: Phase
    /// Input bytes this phase has done, out of `total` (every input's size).
    public var done: Int64
    public var total: Int64

    public init(phase: Phase, done: Int64, total: Int64) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}
