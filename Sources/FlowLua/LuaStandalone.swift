import CLua

/// Stock `lua5.4`'s command line (lua.c), for a lone Lua file: `flowpkg run FILE.lua ARGS`
/// and the interpreter forms programs rebuild from `arg[-1]` (`flowpkg -e STAT FILE`,
/// `flowpkg -v`), which Penlight's `app.lua()` and its tests run.
///
/// The options are lua.c's: `-e stat`, `-l mod`, `-v`, `-E`, `-W`, `--`, `-` (stdin); a
/// script gets its arguments in `arg` (`arg[0]` the script, the interpreter and its options
/// below 0) and as `...`; `LUA_INIT_5_4` or `LUA_INIT` runs first unless `-E`. `-i` (the
/// interactive loop) is the one option left out. The state is closed before this returns,
/// so `__gc` finalizers and to-be-closed variables run, as in lua5.4.
public enum LuaStandalone {
    /// Runs `arguments` (the interpreter's name first, as C's `argv`) and returns the exit
    /// status; errors go to stderr as lua.c prints them, `NAME: message` and a traceback.
    ///
    /// With `sandbox`, the script runs without `io`, `debug`, `dofile`, `loadfile`,
    /// `package.loadlib`, C modules or binary chunks, and `os` has only `time`, `clock` and
    /// `date` (flowpkg run's `--sandbox`); with `trace`, each module `require` finds is named on
    /// stderr with the file it came from (`--trace`).
    ///
    /// Ctrl-C while it runs stops the script as lua5.4 does, with "interrupted!" and a
    /// traceback; the state is closed (`<close>` handlers and finalizers run) and the status is
    /// 130, flowpkg's for an interrupt.
    public static func run(_ arguments: [String], sandbox: Bool = false, trace: Bool = false) -> Int32 {
        run(arguments, sandbox: sandbox, trace: trace, loads: nil)
    }

    /// What a debugger hears of a lone script's code, on the script's thread: the script once
    /// loaded, before it runs (`module` nil, `isScript` true), then each module `require` finds
    /// in a file, before it runs; `chunk` is the file's path as Lua names the chunk.
    package typealias LoadObserver = (_ state: LuaState, _ chunk: String, _ module: String?, _ isScript: Bool) -> Void

    /// `run`, telling `loads` of the code the script loads (a debugger's engine).
    package static func run(_ arguments: [String], sandbox: Bool, trace: Bool, loads: LoadObserver?) -> Int32 {
        guard let state = try? LuaState(openLibraries: true) else { return 1 }
        LuaInterrupt.arm(state)
        observing = loads.map { observer in (state, observer) }
        var status = run(arguments, in: state, sandbox: sandbox, trace: trace)
        observing = nil
        if LuaInterrupt.disarm() { status = 130 }
        state.close()
        return status
    }

    private static func run(_ arguments: [String], in state: LuaState, sandbox: Bool, trace: Bool) -> Int32 {
        let L = state.L
        var driver = driver
        do {
            try driver.withUTF8 {
                try state.load(UnsafeRawBufferPointer($0), rawChunkName: "=flowpkg:lua", on: L)
            }
        } catch {
            return 1
        }
        let stack = LuaStack(L, bridge: nil)
        stack.push(.array(arguments.map { .string($0) }))
        stack.push(message: copyright)
        stack.push(.bool(sandbox))
        stack.push(.bool(trace))
        if observing != nil {
            stack.push(function: loaded)
            stack.push(function: LuaDebugHooks.uncaughtReporter)
        } else {
            lua_pushnil(L)
            lua_pushnil(L)
        }
        guard let results = try? state.call(argumentCount: 6), case .integer(let status)? = results.first else {
            return 1
        }
        return Int32(clamping: status)
    }

    /// The run being observed (one lone script per process).
    nonisolated(unsafe) private static var observing: (LuaState, LoadObserver)?

    /// `loaded(chunk, module)` from the driver: the script (module nil) or a module's file.
    private static let loaded: LuaSwiftFunction = { L in
        guard let L, let (state, observer) = observing else { return 0 }
        let stack = LuaStack(L, bridge: nil)
        guard let chunk = stack.bytes(at: 1) else { return 0 }
        let module =
            lua_type(L, 2) == LUA_TSTRING ? stack.bytes(at: 2).map { String(decoding: $0, as: UTF8.self) } : nil
        observer(state, String(decoding: chunk, as: UTF8.self), module, module == nil)
        return 0
    }

    /// What `lua5.4 -v` prints: lua.h's `LUA_COPYRIGHT`.
    static var copyright: String { String(cString: flowlua_copyright()) }

    /// lua.c's `main`, in Lua: the option loop, `arg`, `LUA_INIT`, the script and its errors.
    static let driver = """
        local argv, copyright, sandbox, trace, loaded, uncaught = ...
        local xpcall = xpcall
        local progname = argv[1] or "lua"
        local stderr, stdout = io.stderr, io.stdout
        local debug = debug
        local function message(text) stderr:write(progname, ": ", tostring(text), "\\n"); stderr:flush() end
        local function handler(m)
          if uncaught then uncaught(m) end
          if type(m) ~= "string" then
            local meta = getmetatable(m)
            if meta and meta.__tostring then m = tostring(m) else m = "(error object is a " .. type(m) .. " value)" end
          end
          return debug.traceback(m, 2)
        end
        local function report(ok, problem) if not ok then message(problem) end return ok end
        local function docall(chunk, ...) return xpcall(chunk, handler, ...) end
        local function dochunk(chunk, problem)
          if chunk == nil then return report(false, problem) end
          return report(docall(chunk))
        end
        local usage = "usage: " .. progname .. " [options] [script [args]]\\n" ..
          "Available options are:\\n" ..
          "  -e stat   execute string 'stat'\\n" ..
          "  -i        enter interactive mode after executing 'script'\\n" ..
          "  -l mod    require library 'mod' into global 'mod'\\n" ..
          "  -v        show version information\\n" ..
          "  -E        ignore environment variables\\n" ..
          "  -W        turn warnings on\\n" ..
          "  --        stop handling options\\n" ..
          "  -         stop handling options and execute stdin"
        -- collectargs: argv[1] is C's argv[0]
        local argc = #argv
        local script, hasE, hasV, noEnv = argc + 1, false, false, false
        local i = 2
        while i <= argc do
          local a = argv[i]
          if a:sub(1, 1) ~= "-" then script = i; break end
          local option = a:sub(2, 2)
          if a == "--" then script = i + 1; break
          elseif a == "-" then script = i; break
          elseif a == "-E" then noEnv = true
          elseif a == "-W" then
          elseif a == "-v" then hasV = true
          elseif a == "-i" then
            message("interactive mode (-i) is not supported; run the script without it")
            return 1
          elseif option == "e" or option == "l" then
            if option == "e" then hasE = true end
            if #a == 2 then
              i = i + 1
              if i > argc or argv[i]:sub(1, 1) == "-" then
                stderr:write(progname, ": '", a, "' needs argument\\n", usage, "\\n")
                return 1
              end
            end
          else
            stderr:write(progname, ": unrecognized option '", a, "'\\n", usage, "\\n")
            return 1
          end
          i = i + 1
        end
        -- createargtable
        local base = script <= argc and script or 1
        local arg = {}
        for index = 1, argc do arg[index - base] = argv[index] end
        _G.arg = arg
        if hasV then stdout:write(copyright, "\\n"); stdout:flush() end
        if noEnv then
          debug.getregistry().LUA_NOENV = true
        else
          local init, name = os.getenv("LUA_INIT_5_4"), "=LUA_INIT_5_4"
          if init == nil then init, name = os.getenv("LUA_INIT"), "=LUA_INIT" end
          if init ~= nil then
            local ok
            if init:sub(1, 1) == "@" then ok = dochunk(loadfile(init:sub(2))) else ok = dochunk(load(init, name)) end
            if not ok then return 1 end
          end
        end
        -- runargs
        i = 2
        while i < script and i <= argc do
          local a = argv[i]
          local option = a:sub(2, 2)
          if option == "e" or option == "l" then
            local extra = a:sub(3)
            if extra == "" then i = i + 1; extra = argv[i] end
            if option == "e" then
              if not dochunk(load(extra, "=(command line)")) then return 1 end
            else
              local ok, value = docall(require, extra)
              if not report(ok, value) then return 1 end
              _G[extra] = value
            end
          elseif a == "-W" then
            warn("@on")
          end
          i = i + 1
        end
        if script <= argc then
          local name = argv[script]
          if name == "-" and argv[script - 1] ~= "--" then name = nil end
          local chunk, problem = loadfile(name)
          if chunk == nil then message(problem); return 1 end
          if loaded and name then
            -- A debugger hears of each file require loads, then of the script (and attaches).
            local searcher = package.searchers[2]
            package.searchers[2] = function(module)
              local loader, extra = searcher(module)
              if type(loader) == "function" and type(extra) == "string" then loaded(extra, module) end
              return loader, extra
            end
            loaded(name)
          end
          if trace then
            for index, searcher in ipairs(package.searchers) do
              package.searchers[index] = function(module)
                local loader, extra = searcher(module)
                if type(loader) == "function" then
                  stderr:write("trace: module ", module, " <- ", tostring(extra or "package.preload"), "\\n")
                end
                return loader, extra
              end
            end
          end
          if sandbox then
            local rawload, select, time, clock, date = load, select, os.time, os.clock, os.date
            _G.io, _G.debug, _G.dofile, _G.loadfile, package.loadlib = nil, nil, nil, nil, nil
            package.searchers[3], package.searchers[4] = nil, nil
            _G.os = { time = time, clock = clock, date = date }
            _G.load = function(chunk, chunkname, mode, ...)
              if select("#", ...) > 0 then return rawload(chunk, chunkname, "t", ...) end
              return rawload(chunk, chunkname, "t")
            end
          end
          local ok, failure = docall(chunk, table.unpack(arg, 1, argc - script))
          if not ok then message(failure); return 1 end
        elseif not hasE and not hasV then
          local chunk, problem = loadfile(nil)
          if chunk == nil then message(problem); return 1 end
          if not report(docall(chunk)) then return 1 end
        end
        stdout:flush()
        return 0
        """
}
