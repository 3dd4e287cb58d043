import FlowLua

/// The parts of a context's set-up still written in Lua (files in `Embedded/lua/`), run only when its options ask for
/// them (a sandbox, declared external modules): they run once, in protected mode, when such a
/// context starts. Each is compiled once per process, when a context first needs it; a context
/// loads its bytecode (`LuaPrecompiledChunk`), which costs a small part of compiling the text
/// again. What every context installs (the host API, `loadfile`/`dofile`, `print`) is C instead
/// (`LuaStack.installHostAPI` and the ones beside it), and its searcher Swift (`ContextCore+Search`).
enum HostScripts {
    /// Applies an allow-list. Arguments: `allowed` (a set of names), `binary` (bool).
    static let sandbox = chunk("sandbox")

    /// Lets `require` load the declared external C modules from the C path, as stock Lua's
    /// C searchers do, and nothing else. Arguments: the C searcher, the all-in-one C
    /// searcher, the declared names (`name` or `Prefix.*`), the C path, whether sandboxed.
    static let externalModules = chunk("external_modules", rawChunkName: "=flowpkg:externalModules")

    /// Wraps `print` and the standard streams' `write` for `options.output`. Arguments:
    /// `observe(isError, text)`, and whether `print` is the host's.
    static let output = chunk("output")

    /// `Embedded/lua/NAME.lua`, compiled in by the EmbedTemplates plugin.
    private static func chunk(_ name: String, rawChunkName: String? = nil) -> LuaPrecompiledChunk {
        LuaPrecompiledChunk(
            EmbeddedLua.text("lua/\(name).lua", in: embeddedTemplateFiles),
            rawChunkName: rawChunkName ?? "=flowpkg:\(name)")
    }
}
