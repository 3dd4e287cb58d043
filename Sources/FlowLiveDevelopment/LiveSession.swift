import FlowLiveProtocol
import FlowLoader
import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ties a development monitor to a host's loader: applies DESIGN.md's priority rules at
/// start-up, puts a live source that connects (now or later) first, and turns each pushed
/// change into the host's reload calls. It runs no Lua itself; the host passes what to call.
public final class LiveSession: Sendable {
    /// What the host does when the live source changes something.
    public struct Hooks: Sendable {
        /// A module changed: run it again if it is loaded (e.g. `LuaContext.reloadModule`).
        public var moduleChanged: @Sendable (ModuleName) -> Void
        /// Modules changed together (one change event, or a live source taking over): run them
        /// again, and once each what depends on them (`LuaContext.reloadModules`). By default,
        /// `moduleChanged` for each.
        public var modulesChanged: @Sendable ([ModuleName]) -> Void
        /// A resource changed: deliver it again (e.g. `LuaContext.resourceDidChange`).
        public var resourceChanged: @Sendable (ResourceKey) -> Void
        /// Scripts changed (by path): run again those the program ran by path
        /// (`LuaContext.reloadScripts`); the next `loadfile` of any of them gets the new code
        /// in any case. By default, nothing more.
        public var scriptsChanged: @Sendable ([String]) -> Void = { _ in }
        /// One line for the developer: connected, refused, a change applied, a dropped connection.
        public var log: @Sendable (String) -> Void

        public init(
            moduleChanged: @escaping @Sendable (ModuleName) -> Void,
            resourceChanged: @escaping @Sendable (ResourceKey) -> Void,
            log: @escaping @Sendable (String) -> Void
        ) {
            self.moduleChanged = moduleChanged
            self.modulesChanged = { names in names.forEach(moduleChanged) }
            self.resourceChanged = resourceChanged
            self.log = log
        }

        /// Hooks that take every change event's modules in one call.
        public init(
            modulesChanged: @escaping @Sendable ([ModuleName]) -> Void,
            resourceChanged: @escaping @Sendable (ResourceKey) -> Void,
            log: @escaping @Sendable (String) -> Void
        ) {
            self.moduleChanged = { modulesChanged([$0]) }
            self.modulesChanged = modulesChanged
            self.resourceChanged = resourceChanged
            self.log = log
        }
    }

    public let monitor: DevelopmentMonitor
    /// What the program sends back to the live source (output, errors, reloads, loaded
    /// items), when the host asked for it.
    public let reporter: LiveReporter?
    private let loader: Loader
    private let hooks: Hooks
    /// The live source serving now, if one is.
    private let live = Locked<LiveSource?>(nil)
    /// The SHA-256 (a manifest's tag) of each loaded module a live source served: a source
    /// that takes over later reloads those it serves with other bytes.
    private let liveTags = Locked<[ModuleName: String]>([:])
    /// Set by `stop()`: the connection it closes is not reported as lost.
    private let isStopped = Locked(false)
    private let refusalHandler = Locked<(@Sendable (String) -> Void)?>(nil)

    public init(monitor: DevelopmentMonitor, loader: Loader, hooks: Hooks, reporter: LiveReporter? = nil) {
        self.monitor = monitor
        self.loader = loader
        self.hooks = hooks
        self.reporter = reporter
        reporter?.observe(loader)
        loader.observeLoads(withBytes: { [liveTags] item, bytes in
            guard case .module(let name) = item.item else { return }
            let tag = item.source == .live ? SHA256.hex(of: bytes) : nil
            liveTags.withLock { $0[name] = tag }
        })
    }

    /// Sends one line of the host's own log to the live source (shown with the program's output).
    public func post(log line: String) {
        reporter?.log(line)
    }

    /// Sends an error the host met (with its traceback) to the live source.
    public func post(error message: String) {
        reporter?.error(message, phase: .run)
    }

    /// Waits up to the monitor's connection timeout, then sets the loader's sources as the
    /// policy says: the live source first when it connected; otherwise the loader stays as it
    /// is, a refusal is reported, and (when nothing answered) a later connection takes over.
    @discardableResult
    public func start(primary: SourceKind) -> SourcePlan {
        let outcome = monitor.connect(expecting: loader.identifier)
        let plan = SourcePolicy.plan(for: SourceSituation(monitor: outcome.situation, primary: .ready(primary)))
        plan.warnings.forEach { hooks.log("warning: \($0)") }
        switch outcome {
        case .connected(let source):
            adopt(source, takingOver: false)
        case .notConnected(let reason):
            hooks.log(
                "warning: \(reason); running the \(primary.rawValue) code, a live source that starts later takes over")
            if plan.acceptsLaterConnection { waitForLaterConnection() }
        case .refused(let reason):
            refused(reason)
        }
        return plan
    }

    /// Calls `handler` once if the live source refuses this host (a rejected token, another
    /// identifier), at start-up or when it connects later: a host that runs only to take live
    /// changes (`flowpkg run --watch`) can stop then. Set it before `start`.
    public func onRefused(_ handler: @escaping @Sendable (String) -> Void) {
        refusalHandler.withLock { $0 = handler }
    }

    /// Closes the change stream and stops reconnecting; the connection it closes is not
    /// reported as lost.
    public func stop() {
        isStopped.withLock { $0 = true }
        monitor.stop()
        // What the program said last (often the error it ends with) still reaches the server,
        // unless the server is gone: then nothing waits.
        reporter?.ended()
        reporter?.flush(timeout: 2)
        reporter?.stop()
    }

    private func refused(_ reason: String) {
        let handler = refusalHandler.withLock { handler -> (@Sendable (String) -> Void)? in
            defer { handler = nil }
            return handler
        }
        handler?(reason)
    }

    /// Whether a live source serves now.
    public var isConnected: Bool { live.withLock { $0 != nil } }

    private func waitForLaterConnection() {
        monitor.connectLater(
            expecting: loader.identifier,
            onConnect: { [self] source in adopt(source, takingOver: true) },
            onRefused: { [self] reason in
                hooks.log("warning: live source refused: \(reason)")
                refused(reason)
            })
    }

    private func adopt(_ source: LiveSource, takingOver: Bool) {
        do {
            try loader.insert(source, at: 0)
        } catch {
            hooks.log("warning: live source refused: \(error)")
            return
        }
        live.withLock { $0 = source }
        hooks.log("live: connected to \(source.location) (\(source.identifier))")
        monitor.watchChanges(
            onOpen: { [self] revision in catchUp(source, to: revision) },
            onChange: { [self] change in apply(change, from: source) },
            onEnd: { [self] reason in drop(source, reason: reason) })
        if takingOver {
            let stale = staleModules(under: source)
            if !stale.isEmpty { hooks.modulesChanged(stale) }
        }
    }

    /// What runs now and `source` serves otherwise: modules that came from the embedded code,
    /// and those an earlier live source served with other bytes (serve restarted after an edit,
    /// or a save landed while the program was between two connections).
    private func staleModules(under source: LiveSource) -> [ModuleName] {
        let tags = Dictionary(source.manifest.modules.map { ($0.name, $0.tag) }, uniquingKeysWith: { a, _ in a })
        let loaded = liveTags.withLock { $0 }
        var stale: [ModuleName] = []
        for item in loader.loadedItems {
            guard case .module(let name) = item.item, let tag = tags[name] else { continue }
            if item.source != .live || loaded[name] != tag { stale.append(name) }
        }
        return stale
    }

    /// A change saved between the manifest fetch and the stream's opening was pushed to no
    /// one: when the stream opens at a newer revision, load what differs.
    private func catchUp(_ source: LiveSource, to revision: Int) {
        let before = source.manifest
        guard revision != before.revision else { return }
        do {
            try source.refresh()
        } catch {
            hooks.log("warning: cannot read the live manifest: \(error)")
            return
        }
        let change = LiveChange.between(before, source.manifest)
        if !change.isEmpty { apply(change, from: source) }
    }

    private func apply(_ change: LiveChange, from source: LiveSource) {
        // An edit of something known needs no new manifest; one more round trip would cost
        // every save its latency. Additions and removals change what the source serves.
        let known = Set(source.manifest.modules.map(\.name))
        let knownResources = Set(source.manifest.resources.map(\.key))
        let knownScripts = Set(source.manifest.scripts.map(\.path))
        if !change.removedModules.isEmpty || !change.removedResources.isEmpty || !change.removedScripts.isEmpty
            || change.modules.contains(where: { !known.contains($0) })
            || change.resources.contains(where: { !knownResources.contains($0) })
            || change.scripts.contains(where: { !knownScripts.contains($0) })
        {
            do {
                try source.refresh()
            } catch {
                hooks.log("warning: cannot read the live manifest: \(error)")
            }
        }
        // The names were checked once, when the event was decoded.
        for name in change.modules { hooks.log("live: module \(name) changed (r\(change.revision))") }
        if !change.modules.isEmpty { hooks.modulesChanged(change.modules) }
        for key in change.resources {
            hooks.log("live: resource \(key) changed (r\(change.revision))")
            hooks.resourceChanged(key)
        }
        for path in change.scripts { hooks.log("live: script \(path) changed (r\(change.revision))") }
        if !change.scripts.isEmpty { hooks.scriptsChanged(change.scripts) }
    }

    private func drop(_ source: LiveSource, reason: String) {
        let stopped = isStopped.withLock { $0 }
        let wasCurrent = live.withLock { live -> Bool in
            guard live === source, !stopped else { return false }
            live = nil
            return true
        }
        guard wasCurrent else { return }
        loader.removeSources(of: .live)
        hooks.log("warning: \(reason); what is loaded keeps running, new loads come from the embedded code")
        waitForLaterConnection()
    }
}
