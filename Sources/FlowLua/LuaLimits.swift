/// Bounds on a Lua state that runs code flowpkg did not write (a project's `.luacheckrc`): one
/// C call such as `string.rep` cannot be interrupted by a hook, so memory is bounded by the
/// allocator and time by a hook that looks at the clocks every hundred instructions.
public struct LuaLimits: Sendable {
    /// Bytes the state may hold at once.
    public var memory: Int
    /// VM instructions between `budget_start()` and `budget_stop()`.
    public var instructions: Int
    /// Wall-clock and CPU seconds between `budget_start()` and `budget_stop()`.
    public var seconds: Double

    public init(memory: Int = 64 << 20, instructions: Int = 10_000_000, seconds: Double = 5) {
        self.memory = memory
        self.instructions = instructions
        self.seconds = seconds
    }

    /// A bound a state passed.
    public enum Bound: Sendable, Equatable, CustomStringConvertible {
        case memory, instructions, time

        public var description: String {
            switch self {
            case .memory: "memory"
            case .instructions: "instructions"
            case .time: "time"
            }
        }
    }
}
