import CFlowLua
import CLua

/// Ctrl-C (SIGINT) on a running Lua program, taken as lua5.4 takes it: the code running stops
/// with the error "interrupted!" (a traceback follows where the caller adds one), in whichever
/// thread runs it, a coroutine included; a second Ctrl-C ends the process at once.
///
/// One state per process at a time: `flowpkg run`'s, never a host's by default (a host keeps
/// its own SIGINT handling unless it sets `LuaContext.Options.stopsOnInterrupt`).
public enum LuaInterrupt {
    /// From now on Ctrl-C stops what `state` runs; its `coroutine.resume` and
    /// `coroutine.wrap` are replaced by ones that note the running coroutine (an interrupt
    /// raised in one goes on in its resumer, with the coroutine's traceback, after closing
    /// it). Call on the thread that runs `state`, before its code runs: it unblocks SIGINT
    /// there.
    package static func arm(_ state: LuaState) {
        flowlua_interrupt_arm(state.L)
    }

    /// Gives Ctrl-C its default action back (call before closing the state, so that a Ctrl-C
    /// while its finalizers run ends the process, as with lua5.4); returns ``happened``.
    @discardableResult
    package static func disarm() -> Bool {
        flowlua_interrupt_disarm() != 0
    }

    /// Whether Ctrl-C came since the last state was armed: a program that caught the
    /// "interrupted!" error still ends with status 130, flowpkg's for an interrupt.
    public static var happened: Bool {
        flowlua_interrupt_happened() != 0
    }
}
