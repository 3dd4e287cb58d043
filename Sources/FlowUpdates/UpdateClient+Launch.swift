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

// The launch guard: which package a launch runs, and an update that fails before it is
// confirmed healthy never chosen again.
extension UpdateClient {
    /// Picks the package this launch runs: an update the previous launch did not confirm
    /// healthy is marked failed first; then `UpdatePolicy` decides over the stored updates.
    /// A chosen update is recorded as launching until `markHealthy()`.
    public func prepareLaunch(monitor: SourceSituation.Monitor = .absent) -> Launch {
        var messages: [String] = []
        let state = store.readState()
        var failed = Set(state.failed)
        if let unconfirmed = state.launching {
            failed.insert(unconfirmed)
            let version = (try? PackageReader.readManifest(at: store.url(of: unconfirmed)).version) ?? "?"
            messages.append(
                "update \(version) (\(unconfirmed.prefix(12))) was not confirmed healthy at its last launch; it is marked failed"
            )
        }
        var readers: [String: PackageReader] = [:]
        var candidates: [UpdateSituation.Candidate] = []
        for id in store.storedIDs {
            guard let reader = try? PackageReader(contentsOf: store.url(of: id)) else {
                messages.append("stored update \(id.prefix(12)) no longer opens; it is deleted")
                store.remove(id)
                continue
            }
            readers[id] = reader
            let manifest = reader.manifest
            candidates.append(
                .init(
                    id: id,
                    package: .init(
                        identifier: manifest.identifier, version: manifest.version,
                        runtimeVersion: manifest.runtimeVersion),
                    signature: reader.signatureStatus(trustedKeys: configuration.trustedKeys),
                    failed: failed.contains(id)))
        }
        let embeddedManifest = embedded.manifest
        let situation = UpdateSituation(
            embedded: .init(
                identifier: embeddedManifest.identifier, version: embeddedManifest.version,
                runtimeVersion: embeddedManifest.runtimeVersion),
            hostRuntimeVersion: configuration.runtimeVersion, candidates: candidates, rolledBack: state.rolledBack,
            monitor: monitor)
        var plan = UpdatePolicy.plan(for: situation)
        messages += plan.messages
        var source: any PackageSource = embedded
        var launching: String?
        if case .update(let id) = plan.choice {
            do {
                source = UpdatePackageSource(
                    try EmbeddedPackageSource(
                        contentsOf: store.url(of: id),
                        expectedIdentifier: embedded.identifier))
                launching = id
            } catch {
                failed.insert(id)
                messages.append("update \(id.prefix(12)) cannot be opened (\(error)); it is marked failed")
                plan = UpdatePlan(
                    choice: .embedded, order: plan.order.map { $0 == .downloadedUpdate ? .embeddedPackage : $0 },
                    messages: plan.messages)
            }
        }
        let finalFailed = failed.sorted()
        try? store.updateState {
            $0.failed = finalFailed
            $0.launching = launching
        }
        launchedUpdate.withLock { $0 = launching }
        if let launching {
            let version = readers[launching]?.manifest.version ?? "?"
            messages.append(
                "running update \(version) (\(launching.prefix(12))) instead of the embedded package \(embeddedManifest.version)"
            )
        }
        return Launch(plan: plan, source: source, messages: messages)
    }

    /// The host confirms the launched update works: it stays in use at the next launches.
    public func markHealthy() {
        guard let id = launchedUpdate.withLock({ $0 }) else { return }
        try? store.updateState { state in
            if state.launching == id { state.launching = nil }
            state.lastGood = id
        }
    }

    /// The launched update failed before the host confirmed it healthy (its start module
    /// threw): it is marked failed, and the embedded package is returned to start again in
    /// this same launch. Nil when no update was launched (the embedded package already ran).
    public func fallBackToEmbedded(reason: String) -> Launch? {
        guard let id = launchedUpdate.withLock({ $0 }) else { return nil }
        let version = (try? PackageReader.readManifest(at: store.url(of: id)).version) ?? "?"
        markFailed()
        launchedUpdate.withLock { $0 = nil }
        return Launch(
            plan: UpdatePlan(choice: .embedded, order: [.embeddedPackage]), source: embedded,
            messages: [
                "update \(version) (\(id.prefix(12))) failed before it was confirmed healthy (\(reason)); it is marked failed, and the embedded package \(embedded.manifest.version) runs instead"
            ])
    }

    /// The host saw the launched update fail: it is never chosen again, and the next launch
    /// runs the embedded package (or an earlier good update).
    public func markFailed() {
        guard let id = launchedUpdate.withLock({ $0 }) else { return }
        try? store.updateState { state in
            if state.launching == id { state.launching = nil }
            if !state.failed.contains(id) { state.failed.append(id) }
            if state.lastGood == id { state.lastGood = nil }
        }
    }
}
