import FlowLoader
import FlowLua
import FlowPackage

/// What a context does with modules, globals, messages and resources; on the executor only.
extension ContextCore {
    /// `require(name)`: the module's first result, running it the first time only.
    func loadModule(_ name: ModuleName) throws -> LuaValue {
        let (state, thread) = try live()
        return try state.call(referenced: requireReference, arguments: [.string(name.rawValue)], on: thread).first
            ?? .nil
    }

    /// Loads the module as `require` does (once; its result kept in `package.loaded`), but
    /// its chunk receives `arguments` as `...` instead of its name and file, as a script run
    /// with `lua script.lua a b` does; a reload passes them again.
    func loadModule(_ name: ModuleName, arguments: [LuaValue]) throws -> LuaValue {
        let (state, thread) = try live()
        let stack = LuaStack(thread, bridge: self)
        if let loaded = stack.loadedModule(name.rawValue) { return loaded }
        moduleArguments[name] = arguments
        let code = try loader.module(named: name)
        try code.bytes.withUnsafeBytes { try state.loadFile($0, rawChunkName: "@" + code.chunkName, on: thread) }
        registerChunk(of: name, on: thread)
        let argumentCount = pushArguments(of: name, chunkName: code.chunkName, on: thread)
        try state.protectedCall(argumentCount: argumentCount, resultCount: 1, on: thread)
        return stack.popModuleResult(as: name.rawValue, keepingStoredValue: true)
    }

    /// Pushes what the module's chunk receives as `...`: its arguments when it was loaded with
    /// some, else its name and file as `require` passes them. Returns how many were pushed.
    private func pushArguments(of name: ModuleName, chunkName: String, on thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        if let arguments = moduleArguments[name] {
            guard stack.reserve(Int32(clamping: arguments.count + 2)) else { return 0 }
            for argument in arguments { stack.push(argument) }
            return Int32(arguments.count)
        }
        stack.push(message: name.rawValue)
        stack.push(message: chunkName)
        return 2
    }

    /// Runs the script at `path` from the loader's sources with `arguments` as `...`.
    func runScript(_ path: String, arguments: [LuaValue]) throws -> [LuaValue] {
        let (state, thread) = try live()
        guard let code = try loader.script(atPath: path) else { throw LuaContextError.noSuchScript(path) }
        try code.bytes.withUnsafeBytes { try state.loadFile($0, rawChunkName: "@" + code.chunkName, on: thread) }
        scriptRuns[path] = arguments
        let stack = LuaStack(thread, bridge: self)
        guard stack.reserve(Int32(clamping: arguments.count + 2)) else {
            stack.pop()
            throw LuaError(kind: .memory, message: "too many arguments (\(arguments.count))")
        }
        for argument in arguments { stack.push(argument) }
        return try state.call(argumentCount: Int32(arguments.count), on: thread)
    }

    /// `fetch(path, running)` for `loadfile` and `dofile`: the packaged script's code (a first
    /// `#` line blanked, as `luaL_loadfile` skips it) and its chunk name, or nothing when no
    /// source has a script at `path`; raises when a source has it but cannot serve it intact.
    /// `running` (from `dofile`) notes the script as run by path, so a live change runs it again.
    func fetchScript(_ thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        let path = String(decoding: stack.bytes(at: 1) ?? [], as: UTF8.self)
        let running = stack.value(at: 2) == .bool(true)
        do {
            guard let code = try loader.script(atPath: path) else { return 0 }
            if running { scriptRuns[path] = [] }
            stack.push(bytes: Self.asLoadfileReads(code.bytes))
            stack.push(message: code.chunkName)
            return 2
        } catch {
            stack.push(message: "cannot load '\(path)': \(error)")
            return -1
        }
    }

    /// A file's code as `luaL_loadfile` reads it: without a UTF-8 byte order mark, and with a
    /// first line starting with `#` left out (its line break kept, so lines keep their numbers).
    static func asLoadfileReads(_ source: [UInt8]) -> [UInt8] {
        var bytes = source
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        if start < bytes.count, bytes[start] == UInt8(ascii: "#") {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            bytes.removeSubrange(0..<end)
        } else if start > 0 {
            bytes.removeSubrange(0..<start)
        }
        return bytes
    }

    /// Puts a C module's opener in `package.preload`, so `require(name)` calls it.
    func registerCModule(_ name: String, opener: LuaCFunction) throws {
        let (_, thread) = try live()
        LuaStack(thread, bridge: nil).setPreload(name, opener: opener)
    }

    /// Runs the module's current code again when it is loaded, and stores its new result as
    /// `require` would; nil when the module is not loaded (there is nothing to reload).
    /// A failure leaves the previous result in place.
    func reload(_ name: ModuleName) throws -> LuaValue? {
        let (state, thread) = try live()
        let stack = LuaStack(thread, bridge: self)
        guard stack.isModuleLoaded(name.rawValue) else { return nil }

        let code = try loader.module(named: name)
        try code.bytes.withUnsafeBytes { try state.loadFile($0, rawChunkName: "@" + code.chunkName, on: thread) }
        registerChunk(of: name, on: thread)
        let argumentCount = pushArguments(of: name, chunkName: code.chunkName, on: thread)
        // What it requires is noted afresh as it runs; a failed run keeps the old notes.
        let saved = takeRequires(of: name, on: thread)
        do {
            try state.protectedCall(argumentCount: argumentCount, resultCount: 1, on: thread)
        } catch {
            finishRequires(of: name, saved: saved, restore: true, on: thread)
            throw error
        }
        finishRequires(of: name, saved: saved, restore: false, on: thread)
        return stack.popModuleResult(as: name.rawValue, keepingStoredValue: false)
    }

    /// Forgets the module: the next `require` runs it again.
    func unload(_ name: ModuleName) throws {
        let (_, thread) = try live()
        finishRequires(of: name, saved: takeRequires(of: name, on: thread), restore: false, on: thread)
        LuaStack(thread, bridge: nil).forgetModule(name.rawValue)
    }

    /// Compiles and runs `source` as text; errors name it `chunkName`.
    func execute(_ source: String, chunkName: String) throws -> [LuaValue] {
        let (state, thread) = try live()
        var source = source
        try source.withUTF8 { try state.load(UnsafeRawBufferPointer($0), rawChunkName: "=" + chunkName, on: thread) }
        return try state.call(argumentCount: 0, on: thread)
    }

    /// `_G[name]`, with metamethods, in protected mode.
    func global(_ name: String) throws -> LuaValue {
        let (_, thread) = try live()
        return try LuaStack(thread, bridge: self).global(name)
    }

    /// `_G[name] = value`, with metamethods (a strict mode may refuse), in protected mode.
    func setGlobal(_ name: String, _ value: LuaValue) throws {
        let (_, thread) = try live()
        try LuaStack(thread, bridge: self).setGlobal(name, value)
    }

    func setGlobal(_ name: String, sequence values: [LuaValue], from first: Int) throws {
        let (_, thread) = try live()
        try LuaStack(thread, bridge: self).setGlobal(name, sequence: values, from: first)
    }

    /// Lua's `postMessage(name, ...)`, from the host.
    func post(_ name: String, _ arguments: [LuaValue]) throws {
        _ = try call(reference: postMessageReference, arguments: [.string(name)] + arguments)
    }

    /// Assigns the resource's current content again to every `getResource(name, type, object,
    /// key)` association; returns how many there were.
    func redeliver(_ key: ResourceKey) throws -> Int {
        let content = try loader.resource(key)
        let (state, thread) = try live()
        let stack = LuaStack(thread, bridge: self)
        stack.push(referenced: redeliverReference)
        stack.push(message: key.name)
        stack.push(message: key.type)
        stack.push(bytes: content)
        let results = try state.call(argumentCount: 3, on: thread)
        if case .integer(let count) = results.first { return Int(count) }
        return 0
    }
}
