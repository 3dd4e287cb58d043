import FlowLiveDevelopment
import FlowLiveProtocol
import FlowRuntime
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LiveOptions {
    /// The program's debug channel through the live source: a debugger may attach at any time;
    /// with --wait-for-debugger, start-up waits for one to finish its configuration first.
    func startDebugChannel(context: LuaContext, program: LiveProgram) -> DebugLiveChannel? {
        guard let url, let parsed = URL(string: url), let token else { return nil }
        let channel = DebugLiveChannel(url: parsed, token: token, program: program)
        let engine = DebugEngine(context: context, transport: channel)
        do {
            try engine.attach(wrappingNow: waitForDebugger != nil)
        } catch {
            return nil
        }
        channel.start(engine)
        if let seconds = waitForDebugger { engine.waitForConfiguration(timeout: seconds) }
        return channel
    }
}
