import Dispatch
import FlowLoader
import FlowLua
import FlowPackage
import FlowSupport

/// A context's Lua state and everything tied to it. Confined to the context's executor: only
/// jobs running there touch it (`registrations` excepted, which callback queues check).
///
/// `@unchecked`: it owns the lua_State, and only the executor's thread touches it (`registrations` is `Locked`).
final class ContextCore: LuaFunctionBridge, @unchecked Sendable {
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
    var activeThread: OpaquePointer?

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

    /// Opens the state: standard libraries, the loader's searcher, the host API, `print`, the
    /// sandbox. Runs on the executor before any module.
    func open() throws {
        let state = try LuaState(openLibraries: true)
        state.bridge = self
        let stack = state.stack
        stack.setHost(Unmanaged.passUnretained(self).toOpaque())
        self.state = state
        activeThread = state.mainThread
        if options.stopsOnInterrupt { LuaInterrupt.arm(state) }

        // package.searchers = { preload, the loader }; no path reaches the file system.
        // Stock Lua's C searchers and C path, kept for the declared external modules only.
        let (hostCPath, cSearcher, cRootSearcher) = stack.replaceSearchers(with: { L in
            ContextCore.of(L).search(L!)
        })
        (chunksReference, requiresReference) = stack.installNotingRequire()
        requireReference = stack.referenceGlobal("require")

        let host = try runSetup(HostScripts.hostAPI, name: "host", results: 5) {
            stack.push(function: { L in ContextCore.of(L).fetchResource(L!) })
            stack.push(function: { L in ContextCore.of(L).notifyHost(L!) })
            return 2
        }
        for (reference, global) in zip(
            host, ["getResource", "addMessageHandler", "removeMessageHandler", "postMessage"])
        {
            stack.setGlobal(global, referenced: reference)
            stack.release(reference)
        }
        postMessageReference = stack.referenceGlobal("postMessage")
        redeliverReference = host[4]

        let stockLoadfile = stack.referenceGlobal("loadfile")
        let stockDofile = stack.referenceGlobal("dofile")
        _ = try runSetup(HostScripts.scripts, name: "scripts", results: 0) {
            stack.push(function: { L in ContextCore.of(L).fetchScript(L!) })
            stack.push(referenced: stockLoadfile)
            stack.push(referenced: stockDofile)
            return 3
        }
        stack.release(stockLoadfile)
        stack.release(stockDofile)

        _ = try runSetup(HostScripts.pathSearcher, name: "path", results: 0) {
            stack.push(function: { L in ContextCore.of(L).fetchModuleFile(L!) })
            return 1
        }

        // The host's own C modules, in package.preload.
        for (name, opener) in options.cModules { stack.setPreload(name, opener: opener) }

        if !options.externalModules.isEmpty {
            let sandboxed = options.sandbox != nil
            _ = try runSetup(HostScripts.externalModules, name: "externalModules", results: 0) {
                stack.push(referenced: cSearcher)
                stack.push(referenced: cRootSearcher)
                stack.push(.array(options.externalModules.map { .string($0) }))
                stack.push(message: options.cPath ?? hostCPath)
                stack.push(.bool(sandboxed))
                return 5
            }
        }
        stack.release(cSearcher)
        stack.release(cRootSearcher)

        if options.print != nil {
            let printer = try runSetup(HostScripts.print, name: "print", results: 1) {
                stack.push(function: { L in ContextCore.of(L).write(L!) })
                return 1
            }
            stack.setGlobal("print", referenced: printer[0])
            stack.release(printer[0])
        }

        if options.output != nil { try observeOutput() }

        if let sandbox = options.sandbox {
            let allowed = sandbox.allowedGlobals.union([
                "getResource", "addMessageHandler", "removeMessageHandler", "postMessage",
            ])
            _ = try runSetup(HostScripts.sandbox, name: "sandbox", results: 0) {
                stack.push(.table(Dictionary(uniqueKeysWithValues: allowed.map { ($0, LuaValue.bool(true)) })))
                stack.push(.bool(sandbox.allowsBinaryChunks))
                return 2
            }
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
    func live() throws -> (state: LuaState, thread: OpaquePointer) {
        guard let state, let thread = activeThread else { throw LuaContextError.terminated }
        return (state, thread)
    }

    /// The core a Swift function called from Lua belongs to, from the state's extra space.
    static func of(_ L: OpaquePointer?) -> ContextCore {
        Unmanaged<ContextCore>.fromOpaque(LuaStack.host(of: L)).takeUnretainedValue()
    }

    /// Runs one of the host scripts with the arguments `arguments` pushes, keeping its results
    /// as registry references.
    func runSetup(_ source: String, name: String, results: Int32, arguments: () -> Int32) throws -> [Int32] {
        let (state, L) = try live()
        var source = source
        try source.withUTF8 { try state.load(UnsafeRawBufferPointer($0), rawChunkName: "=flowpkg:" + name, on: L) }
        let stack = LuaStack(L, bridge: nil)
        return try stack.callKeepingResults(argumentCount: arguments(), resultCount: results)
    }

    // MARK: Functions across the boundary

    func referenceFunction(at index: Int32, on L: OpaquePointer) -> LuaValue {
        let reference = LuaStack(L, bridge: nil).reference(at: index)
        return .function(LuaFunction(reference: reference, owner: owner))
    }

    func pushFunction(_ function: LuaFunction, on L: OpaquePointer) {
        let stack = LuaStack(L, bridge: nil)
        switch function.storage {
        case .lua(let reference, let functionOwner):
            // A reference is only meaningful in the registry it came from (one owner per context).
            guard functionOwner === owner, owner.context != nil else { return stack.push(.nil) }
            stack.push(referenced: reference)
        case .swift(let body):
            let id = nextClosureID
            nextClosureID += 1
            closures[id] = body
            stack.push(tag: id, metatableName: "flowpkg.SwiftFunction") { L in ContextCore.of(L).collectClosure(L!) }
            stack.push(function: { L in ContextCore.of(L).callClosure(L!) }, upvalues: 1)
        }
    }

    func release(_ reference: Int32) {
        state?.stack.release(reference)
    }

    /// Calls the function `reference` names with `arguments`, returning its results.
    func call(reference: Int32, arguments: [LuaValue]) throws -> [LuaValue] {
        let (state, L) = try live()
        let stack = LuaStack(L, bridge: self)
        stack.push(referenced: reference)
        guard stack.reserve(Int32(clamping: arguments.count + 1)) else {
            stack.pop()
            throw LuaError(kind: .memory, message: "too many arguments (\(arguments.count))")
        }
        for argument in arguments { stack.push(argument) }
        return try state.call(argumentCount: Int32(arguments.count), on: L)
    }

    // MARK: Swift functions Lua calls (through flowlua_trampoline: return -1 to raise)

    private func closureID(_ L: OpaquePointer) -> Int {
        let stack = LuaStack(L, bridge: nil)
        return stack.tag(at: stack.upvalue(2))!
    }

    private func callClosure(_ L: OpaquePointer) -> Int32 {
        let stack = LuaStack(L, bridge: self)
        guard let body = closures[closureID(L)] else {
            stack.push(message: "a Swift function was called after its context closed")
            return -1
        }
        let arguments = stack.values(from: 1)
        let previous = activeThread
        activeThread = L
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

    private func collectClosure(_ L: OpaquePointer) -> Int32 {
        if let id = LuaStack(L, bridge: nil).tag(at: 1) { closures[id] = nil }
        return 0
    }

    /// The loader's searcher: Lua's `require` asks it after `package.preload`.
    private func search(_ L: OpaquePointer) -> Int32 {
        let stack = LuaStack(L, bridge: self)
        let text = stack.bytes(at: 1).map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard let name = ModuleName.required(text) else {
            stack.push(message: "no module '\(text)': not a valid module name")
            return 1
        }
        do {
            let code = try loader.module(named: name)
            guard let state else { throw LuaContextError.terminated }
            try code.bytes.withUnsafeBytes { try state.loadFile($0, rawChunkName: "@" + code.chunkName, on: L) }
            registerChunk(of: name, on: L)
            stack.push(message: code.chunkName)
            return 2
        } catch LoaderError.moduleNotFound(_, let searched) {
            // As stock Lua's searcher words it (`no file 'Sources/x.lua'`), with the files this
            // context's sources would have held the module in.
            var tried: [String] = []
            for source in loader.sources {
                let paths = source.searchedPaths(for: name)
                tried += paths.isEmpty ? ["no module '\(name)' in \(source.place)"] : paths.map { "no file '\($0)'" }
            }
            if tried.isEmpty { tried = searched.map { "no module '\(name)' in \($0)" } }
            stack.push(message: tried.isEmpty ? "no module '\(name)' (no sources)" : tried.joined(separator: "\n\t"))
            return 1
        } catch let error as LuaError {
            stack.push(message: "error loading module '\(name)':\n\t\(error.message)")
            return -1
        } catch {
            stack.push(message: "error loading module '\(name)': \(error)")
            return -1
        }
    }

    /// `fetch(name, type)` for getResource: the content, or nil and why.
    private func fetchResource(_ L: OpaquePointer) -> Int32 {
        let stack = LuaStack(L, bridge: self)
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
    private func notifyHost(_ L: OpaquePointer) -> Int32 {
        let stack = LuaStack(L, bridge: self)
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
    private func write(_ L: OpaquePointer) -> Int32 {
        let line = LuaStack(L, bridge: self).bytes(at: 1) ?? []
        options.print?(String(decoding: line, as: UTF8.self))
        return 0
    }
}
