import FlowLiveProtocol
import FlowRuntime
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program `flowpkg dap` launched: the engine, connected over the private channel the
/// environment names, before the start module runs.
package final class DebugLaunch: Sendable {
    package let engine: DebugEngine
    private let channel: DebugSocketChannel
    /// Set once the program is done, so the channel's closing is not taken for the debugger's.
    private let finished = Locked(false)

    private init(engine: DebugEngine, channel: DebugSocketChannel) {
        self.engine = engine
        self.channel = channel
    }

    /// When the environment holds `FLOWPKG_DEBUG_CHANNEL`: connects back, attaches the engine
    /// to `context` and waits (at most `timeout` seconds) for the debugger's
    /// `configurationDone`. Nil when no debugger asked, or the channel cannot be reached.
    ///
    /// `debuggerGone` runs (on the channel's thread) if the debugger closes the channel before
    /// the program is done: a launched program belongs to its debugger, and the caller ends it.
    package static func startIfAsked(
        context: LuaContext, timeout: Double = 30, debuggerGone: @escaping @Sendable () -> Void = {}
    ) -> DebugLaunch? {
        guard let address = getenv(DebugProtocol.channelVariable).map({ String(cString: $0) }) else { return nil }
        let token = getenv(DebugProtocol.tokenVariable).map { String(cString: $0) } ?? ""
        // Programs this one starts (os.execute) are not the debugged one.
        unsetenv(DebugProtocol.channelVariable)
        unsetenv(DebugProtocol.tokenVariable)
        guard let channel = DebugSocketChannel.connect(to: address, token: token) else { return nil }
        let engine = DebugEngine(context: context, transport: channel)
        do { try engine.attach() } catch { return nil }
        let launch = DebugLaunch(engine: engine, channel: channel)
        channel.start(engine) { [weak launch] in
            if let launch, !launch.finished.withLock({ $0 }) { debuggerGone() }
        }
        channel.send(.ready(identifier: context.packageIdentifier.rawValue, processID: getpid()))
        engine.waitForConfiguration(timeout: timeout)
        return launch
    }

    /// As `startIfAsked(context:…)` for a lone script (`flowpkg run FILE.lua`) that has just
    /// loaded `script` on `state`, from inside its driver, before the script runs: the requests
    /// up to `configurationDone` are carried out right here, on the script's thread.
    package static func startIfAsked(
        script: String, state: LuaState, timeout: Double = 30, debuggerGone: @escaping @Sendable () -> Void = {}
    ) -> (DebugLaunch, ScriptDebugHost)? {
        guard let address = getenv(DebugProtocol.channelVariable).map({ String(cString: $0) }) else { return nil }
        let token = getenv(DebugProtocol.tokenVariable).map { String(cString: $0) } ?? ""
        unsetenv(DebugProtocol.channelVariable)
        unsetenv(DebugProtocol.tokenVariable)
        guard let channel = DebugSocketChannel.connect(to: address, token: token) else { return nil }
        let host = ScriptDebugHost(state: state)
        let engine = DebugEngine(context: host, transport: channel)
        do { try engine.attach() } catch { return nil }
        let launch = DebugLaunch(engine: engine, channel: channel)
        channel.start(engine) { [weak launch] in
            if let launch, !launch.finished.withLock({ $0 }) { debuggerGone() }
        }
        host.loaded(chunk: script, module: nil)
        let name = String(script.split(separator: "/").last ?? Substring(script))
        channel.send(.ready(identifier: name, processID: getpid()))
        if let main = engine.mainThread { engine.serveUntilConfigured(timeout: timeout, on: main) }
        return (launch, host)
    }

    /// The program is done: the channel closes.
    package func finish() {
        finished.withLock { $0 = true }
        channel.close()
    }
}
