/// What a debugger's engine in the program (FlowLiveDevelopment) reaches: the context's state,
/// on the context's own thread.
extension LuaContext {
    /// Runs `body` on the context's thread with its Lua state and waits for it (inline when
    /// called from that thread, as from inside a debug hook).
    package func withDebugState<T: Sendable>(_ body: @Sendable (LuaState) throws -> T) throws -> T {
        let core = self.core
        return try executor.sync {
            let (state, _) = try core.live()
            return try body(state)
        }
    }

    /// Queues `body` on the context's thread with its Lua state; false once it has terminated.
    @discardableResult
    package func queueDebugJob(_ body: @escaping @Sendable (LuaState) -> Void) -> Bool {
        let core = self.core
        return executor.async {
            guard let (state, _) = try? core.live() else { return }
            body(state)
        }
    }
}
