import FlowLiveDevelopment
import FlowLiveProtocol
import FlowRuntime
import FlowSupport
import FlowTesting
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

/// `flowpkg dap` launched a spec file (`flowpkg test PROJECT FILE` with its debug channel in
/// the environment): the debugger's engine attaches to that file's Lua context before the file
/// runs, as it attaches to a project's before its start module, and hears of the spec file as
/// of a module loaded. One file, no time limit, no coverage: a stop may last.
final class SpecDebugging: Sendable {
    private let launched = Locked<DebugLaunch?>(nil)
    private let root: String

    /// Nil when no debugger asked for this run.
    init?(root: String) {
        guard getenv(DebugProtocol.channelVariable) != nil else { return nil }
        self.root = root
    }

    /// The options of a run under the debugger.
    static func options(_ options: TestOptions) -> TestOptions {
        var options = options
        options.debugged = true
        options.jobs = 1
        options.coverage = false
        return options
    }

    /// What the runner calls with each file's context: the first one gets the debugger.
    func contextReady(_ context: LuaContext, file: String) {
        guard launched.withLock({ $0 == nil }) else { return }
        let started = DebugLaunch.startIfAsked(context: context) {
            StandardStream.error.write("error: the debugger that launched this run has gone\n")
            _exit(128 + SIGHUP)
        }
        guard let started else { return }
        launched.withLock { $0 = started }
        let path = file.hasPrefix("/") ? file : root + "/" + file
        if let data = FileManager.default.contents(atPath: path) {
            started.engine.announce(chunk: file, bytes: [UInt8](data))
        }
    }

    /// The run is over: the debug channel closes.
    func finish() {
        launched.withLock { $0 }?.finish()
    }
}
