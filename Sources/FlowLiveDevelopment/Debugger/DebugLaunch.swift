import FlowLiveProtocol
import FlowRuntime
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

    private init(engine: DebugEngine, channel: DebugSocketChannel) {
        self.engine = engine
        self.channel = channel
    }

    /// When the environment holds `FLOWPKG_DEBUG_CHANNEL`: connects back, attaches the engine
    /// to `context` and waits (at most `timeout` seconds) for the debugger's
    /// `configurationDone`. Nil when no debugger asked, or the channel cannot be reached.
    package static func startIfAsked(context: LuaContext, timeout: Double = 30) -> DebugLaunch? {
        guard let address = getenv(DebugProtocol.channelVariable).map({ String(cString: $0) }) else { return nil }
        let token = getenv(DebugProtocol.tokenVariable).map { String(cString: $0) } ?? ""
        // Programs this one starts (os.execute) are not the debugged one.
        unsetenv(DebugProtocol.channelVariable)
        unsetenv(DebugProtocol.tokenVariable)
        guard let channel = DebugSocketChannel.connect(to: address, token: token) else { return nil }
        let engine = DebugEngine(context: context, transport: channel)
        do { try engine.attach() } catch { return nil }
        channel.start(engine)
        channel.send(.ready(identifier: context.packageIdentifier.rawValue, processID: getpid()))
        engine.waitForConfiguration(timeout: timeout)
        return DebugLaunch(engine: engine, channel: channel)
    }

    /// The program is done: the channel closes.
    package func finish() {
        channel.close()
    }
}
