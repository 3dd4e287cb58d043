import Dispatch
import FlowRuntime
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs a suite's spec files, each in a context of its own, on every core, and gathers their
/// records in file order.
public enum TestRunner {
    /// Runs `suite` as `options` ask. `fileDone` is called (from any thread, one at a time) as
    /// each file ends, for a progress view. `contextReady` gets each file's Lua context (and the
    /// file) before the file runs: where a debugger attaches.
    public static func run(
        _ suite: TestSuite, options: TestOptions, fileDone: (@Sendable (SpecFileResult) -> Void)? = nil,
        contextReady: (@Sendable (LuaContext, String) -> Void)? = nil
    ) -> TestReport {
        let started = SpecFileRun.now()
        let seed = options.seed ?? Int64.random(in: 0...Int64(Int32.max))
        let files = order(suite.files, options: options, seed: seed)
        let results = Locked([SpecFileResult?](repeating: nil, count: files.count))
        let next = Locked(0)
        let stop = Locked(false)
        let reporting = Locked(())
        let workers = max(1, min(options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index: Int? = next.withLock { value in
                    guard value < files.count, !stop.withLock({ $0 }) else { return nil }
                    defer { value += 1 }
                    return value
                }
                guard let index else { return }
                let result = SpecFileRun.run(
                    files[index], suite: suite, options: options, seed: seed, contextReady: contextReady)
                results.withLock { $0[index] = result }
                if options.failFast, result.records.contains(where: { $0.status == .failure || $0.status == .error }) {
                    stop.withLock { $0 = true }
                }
                if let fileDone { reporting.withLock { _ in fileDone(result) } }
            }
        }
        return TestReport(
            files: results.withLock { $0 }.compactMap { $0 }, seed: seed, duration: SpecFileRun.now() - started)
    }

    /// The files this run takes, in the order they run: the shard's share (by index in the
    /// sorted list, so every machine of a CI matrix agrees), shuffled with `seed` if asked.
    static func order(_ files: [String], options: TestOptions, seed: Int64) -> [String] {
        var chosen = files
        if let shard = options.shard {
            chosen = files.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        if options.shuffle {
            var generator = SeededGenerator(seed: UInt64(bitPattern: seed))
            chosen.shuffle(using: &generator)
        }
        return chosen
    }
}

/// SplitMix64: the same seed gives the same file order on every machine.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
