import FlowLoader
import FlowPackage
import FlowRuntime
import Foundation

extension LiveSession {
    /// Connects `context` to the live source `configuration` names and keeps it in step with
    /// it: the one call a debug host makes (and what `flowpkg run --live` does).
    ///
    /// It waits up to the connection timeout, puts the live source first in the context's
    /// loader when it connects (now, or later if nothing answered in time), and for each change
    /// reloads the changed modules and the modules that required them
    /// (`LuaContext.reloadModules`) or delivers a changed resource again
    /// (`LuaContext.resourceDidChange`). `log` gets one line per event, and the reload and
    /// delivery errors (`error: reloading main: …`); `afterChange` runs after each change is
    /// applied (`flowpkg run` flushes standard output there); `prepare` sees the session before
    /// it connects (to register `onRefused`, say). Keep the session while the
    /// context runs, and `stop()` it before terminating the context.
    @discardableResult
    public static func attach(
        to context: LuaContext, configuration: DevelopmentMonitor.Configuration,
        primary: SourceKind? = nil,
        log: @escaping @Sendable (String) -> Void = LiveSession.logToStandardError,
        afterChange: @escaping @Sendable () -> Void = {},
        prepare: (LiveSession) -> Void = { _ in }
    ) -> LiveSession {
        let hooks = Hooks(
            modulesChanged: { names in
                do {
                    try context.reloadModules(names)
                } catch {
                    afterChange()
                    log("error: reloading \(names.map(\.rawValue).joined(separator: ", ")): \(error)")
                }
                afterChange()
            },
            resourceChanged: { key in
                do {
                    try context.resourceDidChange(key)
                } catch {
                    afterChange()
                    log("error: delivering \(key) again: \(error)")
                }
                afterChange()
            },
            log: log)
        let session = LiveSession(
            monitor: DevelopmentMonitor(configuration: configuration), loader: context.loader, hooks: hooks)
        prepare(session)
        session.start(primary: primary ?? context.loader.sources.first?.kind ?? .embeddedPackage)
        return session
    }

    /// Writes each line to standard error.
    public static let logToStandardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
