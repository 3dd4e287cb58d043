// A debug host that follows `flowpkg serve`: it launches its package, then, when
// FLOWPKG_LIVE_URL and FLOWPKG_LIVE_TOKEN are set, takes every saved change until Ctrl-C.
// Run it as `LiveDevelopment FOLDER IDENTIFIER`, FOLDER holding the `.luapkg`.
import FlowPackage
import FlowRuntime
import Foundation

#if DEBUG
    import FlowLiveDevelopment
#endif

// snippet.hide
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: LiveDevelopment FOLDER IDENTIFIER\n".utf8))
    exit(64)
}
var options = LuaContext.Options()
options.print = { line in FileHandle.standardOutput.write(Data(line.utf8)) }
// snippet.show

var launch = try PackageLaunch(
    package: try PackageIdentifier(arguments[2]), in: [URL(fileURLWithPath: arguments[1])], options: options)

#if DEBUG
    // Only a debug build compiles this: a release build opens no socket and reads nothing remote.
    let environment = ProcessInfo.processInfo.environment
    if let url = environment["FLOWPKG_LIVE_URL"].flatMap(URL.init(string:)),
        let token = environment["FLOWPKG_LIVE_TOKEN"]
    {
        // Waits up to `connectionTimeout` (2 s by default) for the live source, puts it first in
        // the loader, and reloads what changes from then on (the start module again when a
        // module it required changes). What Lua prints and every error go back to
        // `flowpkg serve` and its session page.
        launch.live = LiveLaunch(configuration: .init(url: url, token: token))
    }
#endif

let running = try launch.run()
let start = try running.context.startModule ?? ModuleName("main")
// At once, even into a pipe.
FileHandle.standardOutput.write(Data("\(start) ran and returned \(running.result)\n".utf8))
running.post(log: "host started")

if running.followsLiveSource {
    // Keep running until Ctrl-C; `stop()` ends the session, then the context.
    signal(SIGINT, SIG_IGN)
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
    interrupt.setEventHandler {
        running.stop()
        exit(130)
    }
    interrupt.resume()
    dispatchMain()
}
running.stop()
