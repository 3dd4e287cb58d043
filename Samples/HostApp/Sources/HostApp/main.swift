// A host app in a few lines: find the package FlowpkgBuildPlugin exported into this target's
// bundle, give its Lua code one Swift function and one C module, and run its start module.
// In a debug build with FLOWPKG_LIVE_URL and FLOWPKG_LIVE_TOKEN set, `flowpkg serve` on
// Sources/HostApp/Lua updates the running code on every save.

import FlowPackage
import FlowRuntime
import Foundation
import Greeting
#if DEBUG
    import FlowLiveDevelopment
#endif

// The identifier in Lua/flowpkg.json: the one thing the host names.
let identifier = try PackageIdentifier("com.example.hostapp")

var options = LuaContext.Options()
// Lua's print, line by line to standard output (unbuffered, so live reloads show at once).
options.print = { line in FileHandle.standardOutput.write(Data(line.utf8)) }
// A C module, as `require "greeting"` finds it: luaopen_greeting from the Greeting target.
options.cModules = ["greeting": luaopen_greeting]

let context: LuaContext
do {
    context = try LuaContext(package: identifier, bundle: .module, name: "HostApp", options: options)
} catch {
    FileHandle.standardError.write(Data("HostApp: \(error)\n".utf8))
    exit(1)
}

// A Swift function for Lua: swiftSum(1, 2, 3) == 6.
try context.setGlobal(
    "swiftSum",
    .function(
        LuaFunction { arguments in
            var sum: Int64 = 0
            for argument in arguments {
                guard case .integer(let value) = argument else { throw HostError.notAnInteger(argument) }
                sum += value
            }
            return [.integer(sum)]
        }))

enum HostError: Error, CustomStringConvertible {
    case notAnInteger(LuaValue)
    var description: String { "swiftSum takes integers, not \(self)" }
}

#if DEBUG
    // Debug builds only: with a live source named, load from it first and apply its changes.
    let environment = ProcessInfo.processInfo.environment
    let session = environment["FLOWPKG_LIVE_URL"].flatMap(URL.init(string:)).flatMap { url in
        environment["FLOWPKG_LIVE_TOKEN"].map { token in
            LiveSession.attach(to: context, configuration: .init(url: url, token: token))
        }
    }
#endif

do {
    let result = try context.loadStartModule()
    FileHandle.standardError.write(Data("HostApp: the start module returned \(result)\n".utf8))
} catch {
    FileHandle.standardError.write(Data("HostApp: \(error)\n".utf8))
    exit(1)
}

#if DEBUG
    if let session {
        // Keep running, applying live changes, until Ctrl-C or SIGTERM.
        waitForSignal { session.stop() }
    }
#endif
context.terminate()

/// Blocks until SIGINT or SIGTERM, then runs `cleanUp`.
func waitForSignal(then cleanUp: () -> Void) {
    let received = DispatchSemaphore(value: 0)
    let sources = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { received.signal() }
        source.resume()
        return source
    }
    received.wait()
    sources.forEach { $0.cancel() }
    cleanUp()
}
