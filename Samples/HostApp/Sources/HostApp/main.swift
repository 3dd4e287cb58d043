// A host app in a few lines: find the package FlowpkgBuildPlugin exported into this target's
// bundle, give its Lua code one Swift function and one C module, and run its start module.
// In a debug build with FLOWPKG_LIVE_URL and FLOWPKG_LIVE_TOKEN set, `flowpkg serve` on
// Sources/HostApp/Lua updates the running code on every save. With HOSTAPP_UPDATE_FEED and
// HOSTAPP_UPDATE_KEY (a public key file) set, it takes signed updates from that feed as the
// update recipe of the "Taking signed updates" article does: the update downloaded at one
// launch runs at the next, and an update whose start module throws falls back to the
// embedded package in the same launch.

import FlowLoader
import FlowPackage
import FlowRuntime
import FlowUpdates
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

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("HostApp: \(message)\n".utf8))
    exit(1)
}

/// A context over `source` with the host's functions, as every launch needs it.
@MainActor func makeContext(_ source: any PackageSource) throws -> LuaContext {
    let context = try LuaContext(
        name: "HostApp", packageIdentifier: identifier, loader: try Loader(identifier: identifier, sources: [source]),
        options: options)
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
    return context
}

// The embedded package: the one FlowpkgBuildPlugin put into this target's bundle.
let embedded: EmbeddedPackageSource
do {
    // Its resource folder and the bundle's own (the same folder in a flat SwiftPM bundle).
    var folders: [URL] = []
    for folder in [Bundle.module.resourceURL, Bundle.module.bundleURL].compactMap({ $0?.standardizedFileURL })
    where !folders.contains(folder) {
        folders.append(folder)
    }
    embedded = try EmbeddedPackageSource(
        contentsOf: try PackageLocator.locate(identifier, in: folders), expectedIdentifier: identifier)
} catch {
    fail("\(error)")
}

// Updates, when a feed and the key that signs it are named.
let environment = ProcessInfo.processInfo.environment
var updates: UpdateClient?
if let feed = environment["HOSTAPP_UPDATE_FEED"].flatMap(URL.init(string:)),
    let keyPath = environment["HOSTAPP_UPDATE_KEY"]
{
    do {
        let key = try PackagePublicKey(contentsOf: URL(fileURLWithPath: keyPath))
        let store = URL(
            fileURLWithPath: environment["HOSTAPP_UPDATE_STORE"] ?? NSTemporaryDirectory() + "/HostApp-updates")
        updates = try UpdateClient(
            configuration: .init(feed: feed, trustedKeys: [key], store: store, deadline: 60), embedded: embedded)
    } catch {
        fail("updates: \(error)")
    }
}
let launch = updates?.prepareLaunch()
for message in launch?.messages ?? [] {
    FileHandle.standardError.write(Data("HostApp: update: \(message)\n".utf8))
}

var context: LuaContext
do {
    context = try makeContext(launch?.source ?? embedded)
} catch {
    fail("\(error)")
}

enum HostError: Error, CustomStringConvertible {
    case notAnInteger(LuaValue)
    var description: String { "swiftSum takes integers, not \(self)" }
}

#if DEBUG
    // Debug builds only: with a live source named, load from it first and apply its changes.
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
    // An update whose start module throws: marked failed, and the embedded package runs now.
    guard let fallback = updates?.fallBackToEmbedded(reason: "\(error)") else { fail("\(error)") }
    for message in fallback.messages {
        FileHandle.standardError.write(Data("HostApp: update: \(message)\n".utf8))
    }
    context.terminate()
    do {
        context = try makeContext(fallback.source)
        try context.loadStartModule()
    } catch {
        fail("\(error)")
    }
}
if let updates {
    updates.markHealthy()
    // Checked after start-up; what it downloads runs at the next launch.
    let outcome = updates.checkInBackground().wait(timeout: 70)
    FileHandle.standardError.write(Data("HostApp: update check: \(outcome.map { "\($0)" } ?? "unfinished")\n".utf8))
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
