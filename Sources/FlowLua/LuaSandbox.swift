#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way flowpkg runs a Lua file a project supplies (`.luacheckrc`, a rockspec,
/// `.busted`, `.luacov`): as LuaRocks and luacheck do, its global assignments are its content,
/// so it runs in an environment of its own, with only the pure parts of the standard library
/// (no `io`, `os`, `require`, `load`, `dofile`, `debug`, `setmetatable`) and within a budget
/// (``LuaLimits``: memory, instructions, seconds), so a file can compute its values but can
/// neither read, write nor hang. Every failure is a `LuaError` whose message starts with the
/// file's name.
public struct LuaSandbox: Sendable {
    /// The bounds of one evaluation: past any of them it stops with an error naming the bound.
    public var limits: LuaLimits
    /// Larger files are refused unread: a configuration is a few lines.
    public var maximumSize: Int
    /// Globals that start as tables whose missing fields are new tables, as luacheck's `files`
    /// (`files["spec"].std = "+busted"`); a table assigned to one behaves the same.
    public var autovivifiedTables: [String]
    /// Globals that start as empty tables (luacheck's `stds`).
    public var presetTables: [String]
    /// Work the C functions that a hook cannot interrupt (`string.rep`, `table.move`, pattern
    /// matching) may do in one evaluation, counted as the driver's wrappers estimate it.
    public var workLimit: Int

    /// 64 MB, 10 million instructions, 5 seconds.
    public static let defaultLimits = LuaLimits(memory: 64 << 20, instructions: 10_000_000, seconds: 5)

    public init(
        limits: LuaLimits = LuaSandbox.defaultLimits, maximumSize: Int = 1 << 20, autovivifiedTables: [String] = [],
        presetTables: [String] = [], workLimit: Int = 100_000_000
    ) {
        self.limits = limits
        self.maximumSize = maximumSize
        self.autovivifiedTables = autovivifiedTables
        self.presetTables = presetTables
        self.workLimit = workLimit
    }

    /// What a file left behind.
    public struct Result: Sendable, Equatable {
        /// The globals it set (for the special tables, their final content), copied out as plain
        /// values: strings, numbers, booleans and tables of them (functions are left out).
        public var globals: [String: LuaValue]
        /// The first value it returned (`return { ... }`), `.nil` when none.
        public var returned: LuaValue
    }

    /// Runs `source` as the file `name` (what messages call it) and returns what it set.
    /// `measured`, when given, sees the state once the evaluation ended (its peak memory and
    /// instruction count), before it is closed.
    public func evaluate(_ source: [UInt8], name: String, measured: ((LuaState) -> Void)? = nil) throws -> Result {
        guard source.count <= maximumSize else { throw tooLarge(name: name, size: source.count) }
        if let chain = source.withUnsafeBytes({ ChainScanner.longChain(in: $0) }) {
            throw LuaError(
                kind: .syntax, message: "\(name):\(chain.line): \(chain.message)", chunk: name, line: chain.line)
        }
        let state = try LuaState(limits: limits)
        defer {
            measured?(state)
            state.close()
        }
        let results: [LuaValue]
        do {
            results = try state.run(
                EmbeddedLua.sandbox, chunkName: "flowpkg:sandbox",
                arguments: [
                    .string(String(decoding: source, as: UTF8.self)), .string(name), .integer(Int64(workLimit)),
                    .array(autovivifiedTables.map(LuaValue.string)), .array(presetTables.map(LuaValue.string)),
                ])
        } catch {
            if let bound = state.exceededLimit { throw exceeded(bound, name: name) }
            throw error
        }
        if let bound = state.exceededLimit { throw exceeded(bound, name: name) }
        switch results.first {
        case .table(let globals)?:
            return Result(globals: globals, returned: results.dropFirst().first ?? .nil)
        case .array(let list)? where list.isEmpty:
            return Result(globals: [:], returned: results.dropFirst().first ?? .nil)
        default:
            let message = results.dropFirst().first?.stringValue ?? "\(name): no result"
            throw LuaError(kind: .runtime, message: message, chunk: name)
        }
    }

    /// Reads the regular file at `path` (never a FIFO, device or socket, which it does not
    /// wait on) within `maximumSize`, and evaluates it as `evaluate(_:name:measured:)` does.
    public func evaluate(fileAt path: String, name: String) throws -> Result {
        try evaluate(try contents(ofFileAt: path, name: name), name: name)
    }

    /// The bytes of the regular file at `path`, refused unread when larger than `maximumSize`.
    public func contents(ofFileAt path: String, name: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw LuaError(kind: .other, message: "\(name): cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw LuaError(kind: .other, message: "\(name): not a regular file")
        }
        guard Int(info.st_size) <= maximumSize else { throw tooLarge(name: name, size: Int(info.st_size)) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return Array(bytes[..<filled])
    }

    private func tooLarge(name: String, size: Int) -> LuaError {
        LuaError(
            kind: .runtime,
            message:
                "\(name): it is larger than \(maximumSize >> 20) MB (\(size) bytes); a configuration is a few lines",
            chunk: name)
    }

    private func exceeded(_ bound: LuaLimits.Bound, name: String) -> LuaError {
        let reason: String
        switch bound {
        case .memory: reason = "it needs more than \(limits.memory >> 20) MB of memory"
        case .instructions: reason = "it runs too long (over \(limits.instructions / 1_000_000) million instructions)"
        case .time: reason = "it runs too long (over \(Int(limits.seconds)) seconds)"
        }
        return LuaError(kind: .runtime, message: "\(name): evaluation stopped: \(reason)", chunk: name)
    }
}
