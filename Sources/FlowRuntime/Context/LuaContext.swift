// A host that links FlowRuntime names LuaValue, LuaFunction and LuaError without importing FlowLua.
@_exported import FlowLua

import Dispatch
import FlowLoader
import FlowPackage

/// A standalone Lua 5.4 runtime with its own state (CIMLua's context).
///
/// `require` finds modules through the loader's sources, never the file system; Lua code gets
/// the host API (`getResource`, `addMessageHandler`, `removeMessageHandler`, `postMessage`).
/// Every method is safe to call from any thread: the context runs one job at a time, a
/// synchronous one on the caller's thread when its stack is at least `Options.stackSize` (the
/// main thread's is) and on the context's own thread otherwise, started when first needed;
/// synchronous methods wait for their job (or run inline when called from Lua code).
public final class LuaContext: Sendable {
    /// What a module's completion handler receives: its first result, or why it failed.
    public typealias ModuleCompletion = @Sendable (Result<LuaValue, any Error>) -> Void

    /// The message posted, with the module name, each time a module is reloaded.
    public static let didLoadModuleMessage = "system.did_load_module"

    /// Identifies the context during development (and names its thread).
    public let name: String
    public let packageIdentifier: PackageIdentifier
    /// Where the context's modules and resources come from.
    public let loader: Loader
    public let options: Options
    let executor: LuaExecutor
    let core: ContextCore

    /// Creates the context and opens its state; no module runs yet.
    ///
    /// Throws `LuaContextError.identifierMismatch` when `loader` serves another package.
    public init(name: String, packageIdentifier: PackageIdentifier, loader: Loader, options: Options = Options()) throws
    {
        guard loader.identifier == packageIdentifier else {
            throw LuaContextError.identifierMismatch(expected: packageIdentifier, loader: loader.identifier)
        }
        self.name = name
        self.packageIdentifier = packageIdentifier
        self.loader = loader
        self.options = options
        let owner = LuaContextReference()
        self.core = ContextCore(loader: loader, options: options, owner: owner)
        self.executor = LuaExecutor(name: "flowpkg.lua." + name, stackSize: options.stackSize)
        owner.context = self
        let core = self.core
        do {
            try executor.sync { try core.open() }
        } catch {
            terminate()
            throw error
        }
    }

    deinit {
        terminate()
    }

    /// Every module and resource served so far, and the source that served it.
    public var loadedItems: [LoadedItem] { loader.loadedItems }

    // MARK: Modules

    /// Loads the module (as `require` does: once) and returns its first result.
    @discardableResult
    public func loadModule(_ name: ModuleName) throws -> LuaValue {
        let core = self.core
        return try executor.sync { try core.loadModule(name) }
    }

    /// Loads the module as `loadModule(_:)` does, but its chunk receives `arguments` as `...`
    /// (the script arguments of `lua script.lua a b`) instead of its name and file; a reload
    /// passes them again. What `flowpkg run` does with its start module.
    @discardableResult
    public func loadModule(_ name: ModuleName, arguments: [LuaValue]) throws -> LuaValue {
        let core = self.core
        return try executor.sync { try core.loadModule(name, arguments: arguments) }
    }

    /// Runs the script at `path` (a Lua file loaded by path, `muc/password.lib.lua`, relative to
    /// the sources folder) from the loader's sources, as `dofile(path)` does in Lua: each call
    /// runs it again, with `arguments` as `...`, and returns its results. Throws
    /// `LuaContextError.noSuchScript` when no source has it.
    @discardableResult
    public func loadScript(_ path: String, arguments: [LuaValue] = []) throws -> [LuaValue] {
        let core = self.core
        return try executor.sync { try core.runScript(path, arguments: arguments) }
    }

    /// Runs again each of `paths` (scripts, by path) that the program ran by path (`dofile`, or
    /// `loadScript`, with the arguments it got then), in the order given: what a live source
    /// calls when scripts change. A script only loaded with `loadfile` is not run; its next
    /// `loadfile` gets the new code. Returns the scripts run again; after a failure the others
    /// still run, then the first error is thrown.
    @discardableResult
    public func reloadScripts(_ paths: [String]) throws -> [String] {
        let core = self.core
        return try executor.sync {
            var rerun: [String] = []
            var firstError: (any Error)?
            for path in paths {
                guard let arguments = core.scriptRuns[path] else { continue }
                do {
                    _ = try core.runScript(path, arguments: arguments)
                    rerun.append(path)
                } catch {
                    firstError = firstError ?? error
                }
            }
            if let firstError { throw firstError }
            return rerun
        }
    }

    /// Makes `require(name)` call `opener`, a C module's `luaopen_*` function linked into the
    /// host, by putting it in `package.preload`. Call it before the modules that require it load.
    public func registerCModule(_ name: String, opener: LuaCFunction) throws {
        let core = self.core
        try executor.sync { try core.registerCModule(name, opener: opener) }
    }

    /// Loads the module on the context's thread and calls `completion` with its first result;
    /// `completion` is called again each time the module is reloaded, until `unloadModule`.
    public func loadModule(_ name: ModuleName, completion: @escaping ModuleCompletion) {
        let core = self.core
        let id = core.registrations.withLock { registrations in
            let id = registrations.nextRegistration
            registrations.nextRegistration += 1
            registrations.moduleHandlers[name, default: []].append((id, completion))
            registrations.liveRegistrations.insert(id)
            return id
        }
        let queued = executor.async { [weak self] in
            let result = Result { try core.loadModule(name) }
            self?.deliver(result, to: [(id, completion)])
        }
        if !queued { completion(.failure(LuaContextError.terminated)) }
    }

    /// Runs the module's current code again if it is loaded, then every loaded module that
    /// required it (as `reloadModules` does); false when it was not loaded.
    ///
    /// The entry point a live source calls when a module changes. On an error the previous
    /// result stays in place and no handler is called.
    @discardableResult
    public func reloadModule(_ name: ModuleName) throws -> Bool {
        try !reloadModules([name]).isEmpty
    }

    /// Runs the current code of each changed module that is loaded, then of every loaded module
    /// that required one of them (directly or through others, as noted when it ran), each after
    /// the modules it requires; for each, calls its completion handlers with the new result and
    /// posts `system.did_load_module`. Returns the modules run again, in that order.
    ///
    /// A module whose run fails keeps its previous result, calls no handler, and the modules
    /// that required it are not run again; the others still are, then the first error is thrown.
    @discardableResult
    public func reloadModules(_ names: [ModuleName]) throws -> [ModuleName] {
        let core = self.core
        return try executor.sync {
            let graph = try core.requireGraph()
            var reloaded: [ModuleName] = []
            var held = Set<ModuleName>()
            var firstError: (any Error)?
            for name in try core.reloadOrder(for: names, graph: graph) {
                guard (graph[name] ?? []).isDisjoint(with: held) else {
                    held.insert(name)
                    continue
                }
                do {
                    guard let result = try core.reload(name) else { continue }
                    reloaded.append(name)
                    let handlers = core.registrations.withLock { $0.moduleHandlers[name] ?? [] }
                    deliver(.success(result), to: handlers)
                    try core.post(Self.didLoadModuleMessage, [.string(name.rawValue)])
                } catch {
                    if !reloaded.contains(name) { held.insert(name) }
                    firstError = firstError ?? error
                }
            }
            if let firstError { throw firstError }
            return reloaded
        }
    }

    /// Forgets the module: its completion handlers are never called again once this returns,
    /// and the next load runs it afresh.
    public func unloadModule(_ name: ModuleName) throws {
        let core = self.core
        core.registrations.withLock { registrations in
            for (id, _) in registrations.moduleHandlers[name] ?? [] { registrations.liveRegistrations.remove(id) }
            registrations.moduleHandlers[name] = nil
        }
        try executor.sync { try core.unload(name) }
    }

    // MARK: Code and globals

    /// Compiles and runs `source` (text only) and returns its results.
    @discardableResult
    public func execute(_ source: String, chunkName: String = "execute") throws -> [LuaValue] {
        let core = self.core
        return try executor.sync { try core.execute(source, chunkName: chunkName) }
    }

    /// Runs `source` on the context's thread and calls `completion` with its results.
    public func execute(
        _ source: String, chunkName: String = "execute",
        completion: @escaping @Sendable (Result<[LuaValue], any Error>) -> Void
    ) {
        let core = self.core
        let queue = options.callbackQueue
        let queued = executor.async {
            let result = Result { try core.execute(source, chunkName: chunkName) }
            if let queue { queue.async { completion(result) } } else { completion(result) }
        }
        if !queued { completion(.failure(LuaContextError.terminated)) }
    }

    /// The global `name`, converted (functions stay callable through `LuaFunction`).
    public func global(_ name: String) throws -> LuaValue {
        let core = self.core
        return try executor.sync { try core.global(name) }
    }

    /// Sets the global `name`; tables are copied in, `LuaFunction`s made from Swift closures
    /// become Lua functions.
    public func setGlobal(_ name: String, _ value: LuaValue) throws {
        guard !name.isEmpty else { throw LuaContextError.invalidGlobalName(name) }
        let core = self.core
        try executor.sync { try core.setGlobal(name, value) }
    }

    /// Sets the global `name` to a table holding `values` from index `first` on: the lua
    /// interpreter's `arg` starts at -1 (see ``PackageLaunch/ArgumentTable``).
    public func setGlobal(_ name: String, sequence values: [LuaValue], from first: Int) throws {
        guard !name.isEmpty else { throw LuaContextError.invalidGlobalName(name) }
        let core = self.core
        try executor.sync { try core.setGlobal(name, sequence: values, from: first) }
    }

    // MARK: Messages and resources

    /// Posts `name` with `arguments` to the Lua handlers added with `addMessageHandler`, then
    /// to the host's.
    public func postMessage(_ name: String, _ arguments: [LuaValue] = []) throws {
        let core = self.core
        try executor.sync { try core.post(name, arguments) }
    }

    /// Calls `handler` with the arguments of every `name` message posted, from Lua or the host.
    public func addMessageHandler(_ name: String, _ handler: @escaping @Sendable ([LuaValue]) -> Void) {
        core.registrations.withLock { $0.messageHandlers[name, default: []].append(handler) }
    }

    /// Delivers the resource's current content again to every `getResource(name, type, object,
    /// key)` association; returns how many were assigned. The entry point a live source calls
    /// when a resource changes.
    @discardableResult
    public func resourceDidChange(_ key: ResourceKey) throws -> Int {
        let core = self.core
        return try executor.sync { try core.redeliver(key) }
    }

    // MARK: Life cycle

    /// Closes the Lua state once the work already queued is done, and waits for it (unless
    /// called from the context's own thread, where the state closes after the current call):
    /// every `__gc` finalizer and to-be-closed variable has run when this returns, as when
    /// `lua5.4` closes its state at exit. Every later call throws `LuaContextError.terminated`,
    /// and no handler is called again.
    public func terminate() {
        let core = self.core
        core.registrations.withLock { registrations in
            registrations.liveRegistrations.removeAll()
            registrations.moduleHandlers.removeAll()
            registrations.messageHandlers.removeAll()
        }
        executor.stop(finally: { core.close() })
    }

    /// Calls a Lua function held by reference (`LuaFunction.call`).
    func callFunction(reference: Int32, arguments: [LuaValue]) throws -> [LuaValue] {
        let core = self.core
        return try executor.sync { try core.call(reference: reference, arguments: arguments) }
    }

    /// Frees a Lua function reference once its `LuaFunction` is gone.
    func releaseReference(_ reference: Int32) {
        let core = self.core
        if executor.isCurrent { core.release(reference) } else { executor.runOrQueue { core.release(reference) } }
    }

    private func deliver(_ result: Result<LuaValue, any Error>, to handlers: [(id: Int, handler: ModuleCompletion)]) {
        let core = self.core
        for (id, handler) in handlers {
            let call: @Sendable () -> Void = {
                // Unloading or terminating may have happened since this call was scheduled.
                guard core.registrations.withLock({ $0.liveRegistrations.contains(id) }) else { return }
                handler(result)
            }
            if let queue = options.callbackQueue { queue.async(execute: call) } else { call() }
        }
    }
}
