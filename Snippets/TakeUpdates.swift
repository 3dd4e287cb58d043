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
let key = try PackagePublicKey(contentsOf: keyURL)

// runtimeVersion defaults to the embedded package's: an update must have the same one.
let updates = try UpdateLaunch(
    configuration: .init(feed: feed, trustedKeys: [key], store: storeURL), embedded: embedded)

var launch = PackageLaunch(primary: embedded, name: "App", options: options)
launch.updates = updates
launch.log = { line in print(line) }

// Decides before any Lua runs: a stored update that passes every rule, or the embedded package.
// An update whose start module throws before it is confirmed is marked failed (never run
// again), and the shipped package runs in this same launch; one that starts stays in use.
let running = try launch.run()
let version = (running.source as? UpdatePackageSource)?.manifest.version ?? embedded.manifest.version
print("ran \(version) from \(running.source.place)")

// The feed was checked in the background while the app started; what it downloads runs from
// the next launch. An app keeps running instead of waiting here.
// snippet.hide
// A command-line program ends here, so it waits for the check.
updates.finish(log: { line in print(line) })
running.stop()
