import FlowLiveDevelopment
import FlowLiveProtocol
import FlowLua
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lone Lua file run as stock `lua5.4` runs it: `flowpkg run FILE.lua ARGS`, `flowpkg
/// FILE.lua ARGS`, and lua's own options (`flowpkg -e STAT FILE`, `flowpkg -v`), which is what
/// a program that starts a child Lua from `arg[-1]` runs (Penlight's `app.lua()`).
///
/// The one command line flowpkg reads without ArgumentParser, because ArgumentParser cannot
/// express lua.c's: there the first word is a script path, not a subcommand; `-e` and `-l` are
/// run in the order given, interleaved (ArgumentParser collects each option into its own
/// array and loses the order between them); `-estat` and `-lmod` glue the value to the option,
/// and `-` alone means standard input; and everything after the script, options included, is
/// the script's `arg` (ArgumentParser would claim a `-v` or `--help` there). `interpreterArguments`
/// only recognises the form; lua.c's own rules are applied by `LuaStandalone`.
enum LoneScript {
    /// What to run: lua.c's `argv` and flowpkg's own options given before the file.
    struct Invocation: Equatable {
        var arguments: [String]
        var sandbox = false
        var trace = false
    }

    /// lua.c's `argv` for `arguments` (flowpkg's, without the binary), or nil when they are
    /// not one of these forms: the binary's path first, then what lua5.4 would be given.
    /// In `run [--sandbox] [--trace] FILE.lua ARGS`, options before the file are flowpkg's and
    /// those after it the script's, as with lua5.4.
    static func interpreterArguments(_ arguments: [String]) -> Invocation? {
        guard let first = arguments.first else { return nil }
        if first == "run" {
            var invocation = Invocation(arguments: [])
            var index = 1
            while index < arguments.count {
                switch arguments[index] {
                case "--sandbox" where !invocation.sandbox: invocation.sandbox = true
                case "--trace" where !invocation.trace: invocation.trace = true
                default:
                    guard isLuaFile(arguments[index]) else { return nil }
                    invocation.arguments = [Flowpkg.executablePath] + arguments[index...]
                    return invocation
                }
                index += 1
            }
            return nil
        }
        if isLuaFile(first) || isLuaOption(first) { return Invocation(arguments: [Flowpkg.executablePath] + arguments) }
        return nil
    }

    /// Runs lua5.4's command line and exits with its status, after the Lua state is closed.
    static func run(_ invocation: Invocation) -> Never {
        Interrupt.stopsLua()
        guard getenv(DebugProtocol.channelVariable) != nil else {
            let status = LuaStandalone.run(invocation.arguments, sandbox: invocation.sandbox, trace: invocation.trace)
            fflush(nil)
            exit(status)
        }
        // `flowpkg dap` launched this script: its engine connects back once the script has
        // loaded, before it runs, and hears of each module file `require` loads.
        let debugged = Locked<(DebugLaunch, ScriptDebugHost)?>(nil)
        let status = LuaStandalone.run(
            invocation.arguments, sandbox: invocation.sandbox, trace: invocation.trace
        ) { state, chunk, module, isScript in
            if isScript {
                let started = DebugLaunch.startIfAsked(script: chunk, state: state) {
                    fflush(nil)
                    Flowpkg.Run.standardError("error: the debugger that launched this program has gone\n")
                    _exit(128 + SIGHUP)
                }
                debugged.withLock { $0 = started }
            } else {
                debugged.withLock { $0 }?.1.loaded(chunk: chunk, module: module)
            }
        }
        fflush(nil)
        debugged.withLock { $0 }?.0.finish()
        exit(status)
    }

    /// A path ending in `.lua` that is a file (or, when it does not exist, still a script
    /// name: lua5.4 then reports that it cannot open it).
    private static func isLuaFile(_ path: String) -> Bool {
        guard path.hasSuffix(".lua"), !path.hasPrefix("-") else { return false }
        var isDirectory = false
        return !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) || !isDirectory
    }

    /// One of lua5.4's options, which no flowpkg command starts with.
    private static func isLuaOption(_ argument: String) -> Bool {
        ["-v", "-E", "-W", "-i", "-"].contains(argument) || argument.hasPrefix("-e") || argument.hasPrefix("-l")
    }
}

extension Flowpkg {
    /// The running flowpkg binary's absolute path: `arg[-1]` of every Lua program it runs, so
    /// a program can start another Lua with it.
    static var executablePath: String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if count > 0 { return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        #if !canImport(FoundationEssentials)
            if let path = Bundle.main.executablePath { return path }
        #endif
        let given = CommandLine.arguments.first ?? "flowpkg"
        return given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
    }
}
