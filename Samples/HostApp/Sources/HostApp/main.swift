// A host app in a few lines: launch the package FlowpkgBuildPlugin exported into this target's
// bundle with `PackageLaunch`, giving its Lua code one Swift function and one C module.
// In a debug build with FLOWPKG_LIVE_URL and FLOWPKG_LIVE_TOKEN set, `flowpkg serve` on
// Sources/HostApp/Lua updates the running code on every save. With HOSTAPP_UPDATE_FEED and
// HOSTAPP_UPDATE_KEY (a public key file) set, it takes signed updates from that feed as the
// "Taking signed updates" article does: the update downloaded at one launch runs at the next,
// and an update whose start module throws falls back to the embedded package in the same
// launch (PackageLaunch does that).

import FlowLoader
import FlowPackage
import FlowRuntime
import FlowUpdates
import Foundation
import Greeting
#if DEBUG
    import FlowLiveDevelopment
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("HostApp: \(message)\n".utf8))
    exit(1)
}

var options = LuaContext.Options()
// Lua's print, line by line to standard output (unbuffered, so live reloads show at once).
options.print = { line in FileHandle.standardOutput.write(Data(line.utf8)) }
// A C module, as `require "greeting"` finds it: luaopen_greeting from the Greeting target.
options.cModules = ["greeting": luaopen_greeting]

// The embedded package, by the identifier in Lua/flowpkg.json: the one thing the host names.
var launch: PackageLaunch
do {
    launch = try PackageLaunch(
        package: try PackageIdentifier("com.example.hostapp"), bundle: .module, name: "HostApp", options: options)
} catch {
    fail("\(error)")
}
launch.log = { line in FileHandle.standardError.write(Data("HostApp: \(line)\n".utf8)) }
// A Swift function for Lua, in every context the launch makes: swiftSum(1, 2, 3) == 6.
launch.prepare = { context in
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
}

// Updates, when a feed and the key that signs it are named.
let environment = ProcessInfo.processInfo.environment
var updates: UpdateLaunch?
if let feed = environment["HOSTAPP_UPDATE_FEED"].flatMap(URL.init(string:)),
    let keyPath = environment["HOSTAPP_UPDATE_KEY"], let embedded = launch.embedded
{
    do {
        let key = try PackagePublicKey(contentsOf: URL(fileURLWithPath: keyPath))
        let store = URL(
            fileURLWithPath: environment["HOSTAPP_UPDATE_STORE"] ?? NSTemporaryDirectory() + "/HostApp-updates")
        updates = try UpdateLaunch(
            configuration: .init(feed: feed, trustedKeys: [key], store: store, deadline: 60), embedded: embedded)
    } catch {
        fail("updates: \(error)")
    }
}
launch.updates = updates

#if DEBUG
    // Debug builds only: with a live source named, load from it first and apply its changes.
    if let url = environment["FLOWPKG_LIVE_URL"].flatMap(URL.init(string:)),
        let token = environment["FLOWPKG_LIVE_TOKEN"]
    {
        launch.live = LiveLaunch(configuration: .init(url: url, token: token))
    }
#endif

let running: LaunchedPackage
do {
    running = try launch.run()
} catch {
    fail("\(error)")
}
FileHandle.standardError.write(Data("HostApp: the start module returned \(running.result)\n".utf8))
// What the feed check found; what it downloaded runs at the next launch.
updates?.finish(log: launch.log)

if running.followsLiveSource {
    // Keep running, applying live changes, until Ctrl-C or SIGTERM.
    waitForSignal()
}
running.stop()

enum HostError: Error, CustomStringConvertible {
    case notAnInteger(LuaValue)
    var description: String { "swiftSum takes integers, not \(self)" }
}

/// Blocks until SIGINT or SIGTERM.
func waitForSignal() {
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
}
