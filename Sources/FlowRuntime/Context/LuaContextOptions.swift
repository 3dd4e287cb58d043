import Dispatch

/// A Lua C function (`lua_CFunction`): what a C module's `luaopen_*` opener is.
public typealias LuaCFunction = @convention(c) (OpaquePointer?) -> Int32

extension LuaContext {
    /// How a context is set up.
    public struct Options: Sendable {
        /// When set, only the globals the sandbox allows reach Lua code.
        public var sandbox: Sandbox?
        /// Where Lua's `print` goes; nil keeps Lua's own `print`, which writes to stdout.
        public var print: (@Sendable (String) -> Void)?
        /// Also told what Lua writes to standard output and standard error (`print`,
        /// `io.write`, `io.stdout:write`, `io.stderr:write`), after it is written: a live
        /// session forwards it. `true` for standard error. The text is as written, not split
        /// into lines.
        public var output: (@Sendable (_ isError: Bool, _ text: String) -> Void)?
        /// Where completion and message handlers are called; nil calls them on the thread
        /// running the context's job, where they may call the context again without waiting.
        public var callbackQueue: DispatchQueue?
        /// The C stack Lua gets, in bytes: the size of the context's own thread, and the least a
        /// caller's thread must have for the context to run a synchronous call on it.
        public var stackSize: Int
        /// C modules the host links in, by module name: each opener goes into `package.preload`,
        /// so `require(name)` calls it (also in the sandbox: they are the host's own code).
        public var cModules: [String: LuaCFunction]
        /// Modules `require` may load from the host's Lua C path (a project's `externalModules`:
        /// names, or `Prefix.*`). Only these, and never in the sandbox.
        public var externalModules: [String]
        /// The C path searched for `externalModules`; nil uses stock Lua's: `LUA_CPATH_5_4`,
        /// then `LUA_CPATH`, then Lua's default (`;;` in either stands for the default).
        public var cPath: String?
        /// `LuaInterrupt.request()` stops the running Lua code as Ctrl-C does in lua5.4: it
        /// raises "interrupted!" in the thread running, a coroutine included, so `<close>`
        /// handlers run and the start module throws. For a command-line host (`flowpkg run`),
        /// one context at a time; the host's own SIGINT handling calls `request()` (FlowLua
        /// catches no signal).
        public var stopsOnInterrupt = false

        public init(
            sandbox: Sandbox? = nil, print: (@Sendable (String) -> Void)? = nil,
            callbackQueue: DispatchQueue? = nil, stackSize: Int = 8 << 20,
            cModules: [String: LuaCFunction] = [:], externalModules: [String] = [], cPath: String? = nil
        ) {
            self.sandbox = sandbox
            self.print = print
            self.callbackQueue = callbackQueue
            self.stackSize = stackSize
            self.cModules = cModules
            self.externalModules = externalModules
            self.cPath = cPath
        }

        /// These options with `output` set.
        public func observingOutput(_ output: @escaping @Sendable (_ isError: Bool, _ text: String) -> Void) -> Options
        {
            var copy = self
            copy.output = output
            return copy
        }
    }

    /// An allow-list of globals (CIMLua's sandbox): everything else is removed before any
    /// module runs, from `_G` and from `package.loaded`.
    public struct Sandbox: Sendable, Equatable {
        /// Global names kept whole (`string`), or single fields of a library table (`os.time`),
        /// which keeps a new table holding just those fields.
        public var allowedGlobals: Set<String>
        /// Whether `load` accepts precompiled chunks; off, `load` compiles text only.
        public var allowsBinaryChunks: Bool

        public init(allowedGlobals: Set<String>, allowsBinaryChunks: Bool = false) {
            self.allowedGlobals = allowedGlobals
            self.allowsBinaryChunks = allowsBinaryChunks
        }

        /// Lua's base library, `coroutine`, `math`, `string`, `table`, `utf8`, `require` and
        /// `os.time`/`os.clock`/`os.date`. No `io`, `debug`, `dofile`, `loadfile`,
        /// `package.loadlib`, nor binary `load`. The host API is always there.
        public static let `default` = Sandbox(allowedGlobals: [
            "_G", "_VERSION", "assert", "collectgarbage", "error", "getmetatable", "ipairs", "load", "next",
            "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "require", "select",
            "setmetatable", "tonumber", "tostring", "type", "warn", "xpcall",
            "coroutine", "math", "string", "table", "utf8",
            "os.time", "os.clock", "os.date",
            "package.loaded", "package.preload", "package.searchers", "package.config",
        ])

        /// This sandbox with `names` allowed as well.
        public func permitting(_ names: String...) -> Sandbox {
            var copy = self
            copy.allowedGlobals.formUnion(names)
            return copy
        }
    }
}
