import FlowLua

extension ContextCore {
    /// Wraps `print` and the standard streams' `write` so `options.output` sees what they
    /// write (after it is written, through the same C stdio, so the order is kept).
    func observeOutput() throws {
        _ = try runSetup(
            HostScripts.output, results: 0, [.function(.observedOutput), .value(.bool(options.print != nil))])
    }

    /// `observe(isError, text)` from the script.
    func observedOutput(_ thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        let isError = stack.isTruthy(at: 1)
        let text = stack.bytes(at: 2) ?? []
        options.output?(isError, String(decoding: text, as: UTF8.self))
        return 0
    }
}
