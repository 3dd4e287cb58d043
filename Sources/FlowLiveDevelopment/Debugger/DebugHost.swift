import FlowRuntime
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the engine needs of the program it debugs: its Lua state on the thread that runs it,
/// a way to run work there while it is idle, and each chunk of code as it loads.
package protocol DebugHost: AnyObject, Sendable {
    /// Runs `body` with the state on the thread running its Lua code and waits for it.
    func withDebugState<T: Sendable>(_ body: @Sendable (LuaState) throws -> T) throws -> T
    /// Queues `body` for the state's thread while it is idle; false when it never is (the work
    /// then waits for the program's next safe point).
    @discardableResult func queueDebugJob(_ body: @escaping @Sendable (LuaState) -> Void) -> Bool
    /// Calls `observer` with each chunk loaded from now on: its chunk name (without Lua's
    /// `@`), its module name when it is a module, and its bytes.
    func observeLoadedCode(_ observer: @escaping @Sendable (String, String?, [UInt8]) -> Void)
}

extension LuaContext: DebugHost {
    package func observeLoadedCode(_ observer: @escaping @Sendable (String, String?, [UInt8]) -> Void) {
        loader.observeModules { code in observer(code.chunkName, code.name.rawValue, code.bytes) }
    }
}

/// A lone Lua file run as `lua5.4` runs it (`flowpkg run FILE.lua`): one state, on the one
/// thread that runs the script, never idle; its chunks are reported by the script's driver as
/// `require` (or the start) loads them from files.
package final class ScriptDebugHost: DebugHost, @unchecked Sendable {
    // @unchecked: `state` is only used on the script's thread, from inside its Lua code.
    private let state: LuaState
    private let observers = Locked<[@Sendable (String, String?, [UInt8]) -> Void]>([])

    package init(state: LuaState) {
        self.state = state
    }

    package func withDebugState<T: Sendable>(_ body: @Sendable (LuaState) throws -> T) throws -> T {
        try body(state)
    }

    package func queueDebugJob(_ body: @escaping @Sendable (LuaState) -> Void) -> Bool {
        false
    }

    package func observeLoadedCode(_ observer: @escaping @Sendable (String, String?, [UInt8]) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// The file `chunk` (a path, as Lua's `loadfile` was given it) has loaded, as module
    /// `module` or as the script.
    package func loaded(chunk: String, module: String?) {
        guard let data = FileManager.default.contents(atPath: chunk) else { return }
        let bytes = [UInt8](data)
        for observer in observers.withLock({ $0 }) { observer(chunk, module, bytes) }
    }
}
