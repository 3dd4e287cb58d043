// A debug host that follows `flowpkg serve`: it loads its package, then, when
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

#if DEBUG
    // Only a debug build compiles this: a release build opens no socket and reads nothing remote.
    let environment = ProcessInfo.processInfo.environment
    var live: (configuration: DevelopmentMonitor.Configuration, reporter: LiveReporter)?
    if let url = environment["FLOWPKG_LIVE_URL"].flatMap(URL.init(string:)),
        let token = environment["FLOWPKG_LIVE_TOKEN"]
    {
        // What Lua prints and every error goes back to `flowpkg serve` and its session page.
        let configuration = DevelopmentMonitor.Configuration(url: url, token: token)
        let reporter = LiveReporter(
            configuration: configuration, program: LiveReporter.thisProgram(identifier: arguments[2]))
        options = options.observingOutput(reporter.outputHandler)
        live = (configuration, reporter)
    }
#endif

let context = try LuaContext(
    package: try PackageIdentifier(arguments[2]), in: [URL(fileURLWithPath: arguments[1])], options: options)

#if DEBUG
    var session: LiveSession?
    if let live {
        // Waits up to `connectionTimeout` (2 s by default) for the live source, puts it first
        // in the loader, and reloads what changes from then on.
        session = LiveSession.attach(to: context, configuration: live.configuration, reporter: live.reporter)
        session?.post(log: "host started")
    }
#endif

// The completion runs now, and again each time the start module or a module it required reloads.
let start = try context.startModule ?? ModuleName("main")
let ranOnce = DispatchSemaphore(value: 0)
context.loadModule(start) { result in
    let line: String
    switch result {
    case .success(let value): line = "\(start) ran and returned \(value)\n"
    case .failure(let error): line = "\(start) failed: \(error)\n"
    }
    FileHandle.standardOutput.write(Data(line.utf8))  // at once, even into a pipe
    ranOnce.signal()
}
ranOnce.wait()

#if DEBUG
    if let session {
        // Keep running until Ctrl-C; stop the session before the context goes away.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interrupt.setEventHandler {
            session.stop()
            context.terminate()
            exit(130)
        }
        interrupt.resume()
        dispatchMain()
    }
#endif
context.terminate()
