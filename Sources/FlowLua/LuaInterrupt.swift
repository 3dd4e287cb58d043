import CFlowLua
import CLua

/// Ctrl-C on a running Lua program, taken as lua5.4 takes it: the code running stops with the
/// error "interrupted!" (a traceback follows where the caller adds one), in whichever thread
/// runs it, a coroutine included.
///
/// One state per process at a time is armed: `flowpkg run`'s, never a host's by default (a
/// context is armed when it sets `LuaContext.Options.stopsOnInterrupt`). FlowLua catches no
/// signal itself: whoever does (FlowCLI's `Interrupt`, the one place flowpkg catches them, or a
/// host's own handler) calls ``request()``.
public enum LuaInterrupt {
    /// From now on ``request()`` stops what `state` runs; its `coroutine.resume` and
    /// `coroutine.wrap` are wrapped so that they note the running coroutine (an interrupt raised
    /// in one goes on in its resumer, with the coroutine's traceback, after closing it). Call on
    /// the thread that runs `state`, before its code runs.
    package static func arm(_ state: LuaState) {
        flowlua_interrupt_arm(state.L)
    }

    /// Stops the armed state's running code with "interrupted!" at its next instruction, as
    /// lua5.4's Ctrl-C does; false (nothing done) when no state is armed. Async-signal-safe:
    /// from a signal handler or any thread.
    @discardableResult
    public static func request() -> Bool {
        flowlua_interrupt_request() != 0
    }

    /// No state is armed any more (call before closing the state, so that a Ctrl-C while its
    /// finalizers run finds none, and the caller lets it end the process, as with lua5.4);
    /// returns ``happened``.
    @discardableResult
    package static func disarm() -> Bool {
        flowlua_interrupt_disarm() != 0
    }

    /// Whether a request came since the last state was armed: a program that caught the
    /// "interrupted!" error still ends with status 130, flowpkg's for an interrupt.
    public static var happened: Bool {
        flowlua_interrupt_happened() != 0
    }
}
