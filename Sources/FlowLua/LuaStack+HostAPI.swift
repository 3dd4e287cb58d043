import CFlowLua
import CLua

/// A context's host API, `loadfile`/`dofile` and its `print`:
/// C closures (`Sources/CFlowLua/host_api.c`, `host_loaders.c`) over the host's functions, each
/// installed by one protected call at every context start, instead of loading and running Lua
/// set-up chunks (`Benchmarks/README.md`, host_launch).
extension LuaStack {
    /// The globals getResource, addMessageHandler, removeMessageHandler and postMessage, over
    /// the host's functions `fetchResource(name, type) -> content | nil, message` and
    /// `notifyHost(message, ...)`. Returns references to postMessage and to
    /// `redeliver(name, type, content) -> count`, for the host to call.
    package func installHostAPI(fetchResource: Int32, notifyHost: Int32) throws -> (
        postMessage: Int32, redeliver: Int32
    ) {
        flowlua_pushcfunction(L, flowlua_install_host_api)
        push(hostFunction: fetchResource)
        push(hostFunction: notifyHost)
        let references = try callKeepingResults(argumentCount: 2, resultCount: 2)
        return (references[0], references[1])
    }

    /// `loadfile` and `dofile` that load a packaged script by its relative path (as LÖVE's
    /// `love.filesystem.load` loads from the game) and run stock Lua's own for every other path,
    /// over the host's `fetchScript(path, running) -> code, chunkName | nothing` (`running` from
    /// `dofile`, which a live change repeats).
    package func installLoaders(fetchScript: Int32) throws {
        flowlua_pushcfunction(L, flowlua_install_loaders)
        push(hostFunction: fetchScript)
        _ = try callKeepingResults(argumentCount: 1, resultCount: 0)
    }

    /// A `print` that hands each line to the host's `write(line)`.
    package func installPrint(write: Int32) throws {
        flowlua_pushcfunction(L, flowlua_install_print)
        push(hostFunction: write)
        _ = try callKeepingResults(argumentCount: 1, resultCount: 0)
    }
}
