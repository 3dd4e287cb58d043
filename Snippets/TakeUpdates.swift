// A host that takes signed updates: each launch runs the newest trustworthy update it
// downloaded before (or the package it shipped with), then checks the feed for the next launch.
// Run it as `TakeUpdates EMBEDDED.luapkg FEED-URL TRUSTED.pub STORE-FOLDER`.
import FlowLoader
import FlowPackage
import FlowRuntime
import FlowUpdates
import Foundation

// snippet.hide
let arguments = CommandLine.arguments
guard arguments.count == 5, let feed = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: TakeUpdates EMBEDDED.luapkg FEED-URL TRUSTED.pub STORE-FOLDER\n".utf8))
    exit(64)
}
let embeddedURL = URL(fileURLWithPath: arguments[1])
let keyURL = URL(fileURLWithPath: arguments[3])
let storeURL = URL(fileURLWithPath: arguments[4])
let options = LuaContext.Options(print: { line in FileHandle.standardOutput.write(Data(line.utf8)) })
// snippet.show

// The package the app shipped with, and the public key it trusts (never the private one).
let embedded = try EmbeddedPackageSource(contentsOf: embeddedURL)
let identifier = embedded.identifier
let key = try PackagePublicKey(contentsOf: keyURL)

// runtimeVersion defaults to the embedded package's: an update must have the same one.
let updates = try UpdateClient(
    configuration: .init(feed: feed, trustedKeys: [key], store: storeURL), embedded: embedded)

// Decide before any Lua runs: a stored update that passes every rule, or the embedded package.
let launch = updates.prepareLaunch()
for message in launch.messages { print("update: \(message)") }

/// A context over `source`, its start module run: every package source names its start module
/// (the embedded package's, or the downloaded update's).
func start(_ source: any PackageSource) throws -> LuaContext {
    let context = try LuaContext(
        name: "App", packageIdentifier: identifier, loader: try Loader(identifier: identifier, sources: [source]),
        options: options)
    _ = try context.loadStartModule()
    let version = (source as? UpdatePackageSource)?.manifest.version ?? embedded.manifest.version
    print("ran \(version) from \(source.place)")
    return context
}

let context: LuaContext
do {
    context = try start(launch.source)
} catch {
    // The update's start module threw before it was confirmed: it is marked failed (never run
    // again), and the shipped package runs in this same launch.
    guard let fallback = updates.fallBackToEmbedded(reason: "\(error)") else { throw error }
    for message in fallback.messages { print("update: \(message)") }
    context = try start(embedded)
}
// The app is up: the package that runs stays in use at the next launches.
updates.markHealthy()

// Look for the next update while the app runs; what it downloads runs from the next launch.
let check = updates.checkInBackground { outcome in print("update: \(outcome)") }
// snippet.hide
// A command-line program ends here, so it waits for the check; an app keeps running instead.
_ = check.wait(timeout: 120)
context.terminate()
