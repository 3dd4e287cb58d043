import FlowLoader
import FlowPackage
import FlowRuntime
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension LiveSession {
    /// Connects `context` to the live source `configuration` names and keeps it in step with
    /// it: the one call a debug host makes (and what `flowpkg run --live` does).
    ///
    /// It waits up to the connection timeout, puts the live source first in the context's
    /// loader when it connects (now, or later if nothing answered in time), and for each change
    /// reloads the changed modules and the modules that required them
    /// (`LuaContext.reloadModules`), runs a changed script again when the program ran it by
    /// path (`LuaContext.reloadScripts`), or delivers a changed resource again
    /// (`LuaContext.resourceDidChange`). `log` gets one line per event, and the reload and
    /// delivery errors (`error: reloading main: …`); `afterChange` runs after each change is
    /// applied (`flowpkg run` flushes standard output there); `prepare` sees the session before
    /// it connects (to register `onRefused`, say). With `reporter`, reload times, reload and
    /// delivery errors and every load go back to the live source (set the context's
    /// `Options.output` to `reporter.outputHandler` for its output). Keep the session while the
    /// context runs, and `stop()` it before terminating the context.
    @discardableResult
    public static func attach(
        to context: LuaContext, configuration: DevelopmentMonitor.Configuration,
        primary: SourceKind? = nil,
        log: @escaping @Sendable (String) -> Void = LiveSession.logToStandardError,
        afterChange: @escaping @Sendable () -> Void = {},
        reporter: LiveReporter? = nil,
        prepare: (LiveSession) -> Void = { _ in }
    ) -> LiveSession {
        var hooks = Hooks(
            modulesChanged: { names in
                let started = DispatchTime.now().uptimeNanoseconds
                do {
                    let reloaded = try context.reloadModules(names)
                    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                    reporter?.reloaded(
                        modules: (reloaded.isEmpty ? names : reloaded).map(\.rawValue), resources: [],
                        milliseconds: milliseconds)
                } catch {
                    afterChange()
                    let names = names.map(\.rawValue).joined(separator: ", ")
                    if !configuration.sourceShowsSyntaxErrors || (error as? LuaError)?.kind != .syntax {
                        log("error: reloading \(names): \(error)")
                    }
                    reporter?.error("reloading \(names): \(error)", phase: .reload)
                }
                afterChange()
            },
            resourceChanged: { key in
                let started = DispatchTime.now().uptimeNanoseconds
                do {
                    try context.resourceDidChange(key)
                    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                    reporter?.reloaded(modules: [], resources: [key.description], milliseconds: milliseconds)
                } catch {
                    afterChange()
                    log("error: delivering \(key) again: \(error)")
                    reporter?.error("delivering \(key) again: \(error)", phase: .delivery)
                }
                afterChange()
            },
            log: log)
        hooks.scriptsChanged = { paths in
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                let rerun = try context.reloadScripts(paths)
                let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                // A report names what was loaded again; a script by its path.
                if !rerun.isEmpty { reporter?.reloaded(modules: rerun, resources: [], milliseconds: milliseconds) }
            } catch {
                afterChange()
                let paths = paths.joined(separator: ", ")
                log("error: running \(paths) again: \(error)")
                reporter?.error("running \(paths) again: \(error)", phase: .reload)
            }
            afterChange()
        }
        let session = LiveSession(
            monitor: DevelopmentMonitor(configuration: configuration), loader: context.loader, hooks: hooks,
            reporter: reporter)
        prepare(session)
        session.start(primary: primary ?? context.loader.sources.first?.kind ?? .embeddedPackage)
        return session
    }

    /// Writes each line to standard error.
    public static let logToStandardError: @Sendable (String) -> Void = { line in
        StandardStream.error.write(line + "\n")
    }
}
