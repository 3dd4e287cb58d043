import Dispatch
import FlowLoader
import FlowLua
import FlowPackage
import FlowSupport

/// A context's Lua state and everything tied to it. Confined to the context's executor: only
/// jobs running there touch it (`registrations` excepted, which callback queues check).
///
/// `@unchecked`: it owns the lua_State, and only the executor's thread touches it (`registrations` is `Locked`).
final class ContextCore: LuaFunctionBridge, LuaHost, @unchecked Sendable {
    /// The handlers a context calls back: added from any thread, checked by callback queues.
    struct Registrations {
        /// Completion handlers by module, each with the id its registration is known by.
        var moduleHandlers: [ModuleName: [(id: Int, handler: LuaContext.ModuleCompletion)]] = [:]
        var liveRegistrations: Set<Int> = []
        var nextRegistration = 1
        /// Swift message handlers by message name.
        var messageHandlers: [String: [@Sendable ([LuaValue]) -> Void]] = [:]
    }

    let loader: Loader
    let options: LuaContext.Options
    let owner: LuaContextReference
    private(set) var state: LuaState?
    /// The Lua thread API calls use: the main thread, or the coroutine a Swift function was
    /// called from while that call runs.
    var activeThread: LuaThread?

    private var closures: [Int: LuaFunction.Body] = [:]
    private var nextClosureID = 1
    private(set) var requireReference = LuaStack.noReference
    private(set) var postMessageReference = LuaStack.noReference
    private(set) var redeliverReference = LuaStack.noReference
    /// Module chunk -> module name (weak keys), and module -> { [required module] = true }:
    /// what `flowlua_require` keeps so a reload re-runs the modules that required a changed one.
    private(set) var chunksReference = LuaStack.noReference
    private(set) var requiresReference = LuaStack.noReference
    /// What a module loaded with arguments (a start module) receives as `...`, again on reload.
    var moduleArguments: [ModuleName: [LuaValue]] = [:]
    /// The scripts the program ran by path (`dofile`, `loadScript`), with the arguments they
    /// got: what a live change runs again.
    var scriptRuns: [String: [LuaValue]] = [:]

    let registrations = Locked(Registrations())

    init(loader: Loader, options: LuaContext.Options, owner: LuaContextReference) {
        self.loader = loader
        self.options = options
        self.owner = owner
    }

    /// The Swift functions a context gives Lua, by the number FlowLua's trampoline hands back.
    enum HostFunction: Int32 {
        case search, fetchResource, notifyHost, fetchScript, write, observedOutput
        case callClosure, collectClosure
    }

    /// Opens the state: standard libraries, the loader's searcher, the host API, `print`, the
    /// sandbox. Runs on the executor before any module.
    func open() throws {
        let state = try LuaState(openLibraries: true, pooled: true)
        state.bridge = self
        state.setHost(self)
        let stack = state.stack
        self.state = state
        activeThread = state.main
        if options.stopsOnInterrupt { LuaInterrupt.arm(state) }

        // package.searchers = { preload, the loader }; no path reaches the file system.
        // Stock Lua's C searchers and C path, kept for the declared external modules only.
        let (hostCPath, cSearcher, cRootSearcher) = stack.replaceSearchers(
            withHostFunction: HostFunction.search.rawValue, keepingCSearchers: !options.externalModules.isEmpty)
        (chunksReference, requiresReference) = stack.installNotingRequire()
        requireReference = stack.referenceGlobal("require")

        // The host API and loadfile/dofile: C closures over the host's functions (CFlowLua's
        // host_api.c and host_loaders.c).
        (postMessageReference, redeliverReference) = try stack.installHostAPI(
            fetchResource: HostFunction.fetchResource.rawValue, notifyHost: HostFunction.notifyHost.rawValue)
        try stack.installLoaders(fetchScript: HostFunction.fetchScript.rawValue)

        // The host's own C modules, in package.preload.
        for (name, opener) in options.cModules { stack.setPreload(name, opener: opener) }

        if !options.externalModules.isEmpty {
            _ = try runSetup(
                HostScripts.externalModules, results: 0,
                [
                    .referenced(cSearcher), .referenced(cRootSearcher),
                    .value(.array(options.externalModules.map { .string($0) })),
                    .value(.string(options.cPath ?? hostCPath)), .value(.bool(options.sandbox != nil)),
                ])
        }
        stack.release(cSearcher)
        stack.release(cRootSearcher)

        if options.print != nil { try stack.installPrint(write: HostFunction.write.rawValue) }

        if options.output != nil { try observeOutput() }

        if let sandbox = options.sandbox {
            let allowed = sandbox.allowedGlobals.union([
                "getResource", "addMessageHandler", "removeMessageHandler", "postMessage",
            ])
            _ = try runSetup(
                HostScripts.sandbox, results: 0,
                [
                    .value(.table(Dictionary(uniqueKeysWithValues: allowed.map { ($0, LuaValue.bool(true)) }))),
                    .value(.bool(sandbox.allowsBinaryChunks)),
                ])
        }
    }

    /// Closes the state (running every pending `__gc` finalizer and to-be-closed variable, as
    /// `lua_close` does); later calls find no state and report the context terminated.
    func close() {
        // Ctrl-C's default action is back before the finalizers run, as in lua5.4.
        if options.stopsOnInterrupt, state != nil { LuaInterrupt.disarm() }
        // The state is closed here and now, whoever else may still hold the `LuaState`.
        state?.close()
        state = nil
        activeThread = nil
        closures.removeAll()
    }

    /// The state and the thread to use, or `.terminated`.
    func live() throws -> (state: LuaState, thread: LuaThread) {
        guard let state, let thread = activeThread else { throw LuaContextError.terminated }
        return (state, thread)
    }

    /// One argument of a host script: a host function, a registry reference, or a value.
    enum SetupArgument {
        case function(HostFunction)
        case referenced(Int32)
        case value(LuaValue)
    }

    /// Runs one of the host scripts with `arguments`, keeping its results as registry
    /// references.
    func runSetup(_ chunk: LuaPrecompiledChunk, results: Int32, _ arguments: [SetupArgument]) throws -> [Int32] {
        let (state, thread) = try live()
        return try state.callKeepingResults(
            chunk,
            arguments: arguments.map { argument -> LuaSetupArgument in
                switch argument {
                case .function(let function): .hostFunction(function.rawValue)
                case .referenced(let reference): .referenced(reference)
                case .value(let value): .value(value)
                }
            }, resultCount: results, on: thread)
    }

    /// FlowLua's trampoline calls this for every host function Lua calls.
    func callHostFunction(_ function: Int32, on thread: LuaThread) -> Int32 {
        switch HostFunction(rawValue: function) {
        case .search: search(thread)
        case .fetchResource: fetchResource(thread)
        case .notifyHost: notifyHost(thread)
        case .fetchScript: fetchScript(thread)
        case .write: write(thread)
        case .observedOutput: observedOutput(thread)
        case .callClosure: callClosure(thread)
        case .collectClosure: collectClosure(thread)
        case nil: 0
        }
    }

    // MARK: Functions across the boundary

    func referenceFunction(at index: Int32, on thread: LuaThread) -> LuaValue {
        let reference = LuaStack(thread, bridge: nil).reference(at: index)
        return .function(LuaFunction(reference: reference, owner: owner))
    }

    func pushFunction(_ function: LuaFunction, on thread: LuaThread) {
        let stack = LuaStack(thread, bridge: nil)
        switch function.storage {
        case .lua(let reference, let functionOwner):
            // A reference is only meaningful in the registry it came from (one owner per context).
            guard functionOwner === owner, owner.context != nil else { return stack.push(.nil) }
            stack.push(referenced: reference)
        case .swift(let body):
            let id = nextClosureID
            nextClosureID += 1
            closures[id] = body
            stack.push(
                tag: id, metatableName: "flowpkg.SwiftFunction", hostCollector: HostFunction.collectClosure.rawValue)
            stack.push(hostFunction: HostFunction.callClosure.rawValue, upvalues: 1)
        }
    }

    func release(_ reference: Int32) {
        state?.stack.release(reference)
    }

    /// Calls the function `reference` names with `arguments`, returning its results.
    func call(reference: Int32, arguments: [LuaValue]) throws -> [LuaValue] {
        let (state, thread) = try live()
        return try state.call(referenced: reference, arguments: arguments, on: thread)
    }

    // MARK: Swift functions Lua calls (through flowlua_trampoline: return -1 to raise)

    private func callClosure(_ thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        guard let id = stack.tag(at: stack.hostUpvalue(1)), let body = closures[id] else {
            stack.push(message: "a Swift function was called after its context closed")
            return -1
        }
        let arguments = stack.values(from: 1)
        let previous = activeThread
        activeThread = thread
        defer { activeThread = previous }
        do {
            let results = try body(arguments)
            guard stack.reserve(Int32(clamping: results.count)) else {
                stack.push(message: "too many results (\(results.count))")
                return -1
            }
            for result in results { stack.push(result) }
            return Int32(results.count)
        } catch {
            // Where the Lua caller is, as Lua's own errors say it: `main.lua:3: message`.
            stack.push(errorMessage: (error as? LuaError)?.message ?? "\(error)")
            return -1
        }
    }

    private func collectClosure(_ thread: LuaThread) -> Int32 {
        if let id = LuaStack(thread, bridge: nil).tag(at: 1) { closures[id] = nil }
        return 0
    }

    /// `fetch(name, type)` for getResource: the content, or nil and why.
    private func fetchResource(_ thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        let name = String(decoding: stack.bytes(at: 1) ?? [], as: UTF8.self)
        let type = String(decoding: stack.bytes(at: 2) ?? [], as: UTF8.self)
        do {
            let key = try ResourceKey(name: name, type: type)
            stack.push(bytes: try loader.resource(key))
            return 1
        } catch {
            stack.push(.nil)
            stack.push(message: "\(error)")
            return 2
        }
    }

    /// Hands a message posted in Lua to the host's Swift handlers.
    private func notifyHost(_ thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        let name = String(decoding: stack.bytes(at: 1) ?? [], as: UTF8.self)
        let handlers = registrations.withLock { $0.messageHandlers[name] ?? [] }
        guard !handlers.isEmpty else { return 0 }
        let arguments = stack.values(from: 2)
        for handler in handlers {
            if let queue = options.callbackQueue { queue.async { handler(arguments) } } else { handler(arguments) }
        }
        return 0
    }

    /// `print`'s output, when the host takes it.
    private func write(_ thread: LuaThread) -> Int32 {
        let line = LuaStack(thread, bridge: self).bytes(at: 1) ?? []
        options.print?(String(decoding: line, as: UTF8.self))
        return 0
    }
}
