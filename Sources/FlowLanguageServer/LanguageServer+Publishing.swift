/// Publishing findings: edits are handed to the session when a request needs them or no input
/// waits, and their findings computed and sent by the `DiagnosticsPublisher`'s thread, so a
/// request is answered without waiting for the project-wide rules (issue 47).
extension LanguageServer {
    /// Publishes every file whose findings changed since they were last published, from the
    /// project as it is now, on the publisher's thread.
    func publish(version: Int?, path: String?) {
        guard let workspace else { return }
        publisher.submit(
            DiagnosticsPublisher.Job(
                workspace: workspace, snapshot: workspace.session.snapshot(), documents: documents, version: version,
                path: path))
    }

    /// Hands the documents edited since the last time to the session, which analyses each alone.
    func applyPendingEdits() {
        guard !pendingEdits.isEmpty else { return }
        let paths = pendingEdits
        pendingEdits = []
        guard let workspace else { return }
        for path in paths {
            guard let document = documents[path] else { continue }
            if workspace.session.setBuffer(document.text.bytes, forPath: path), !unpublishedEdits.contains(path) {
                unpublishedEdits.append(path)
            }
        }
    }

    /// Checks the documents edited since the last time, and publishes what changed.
    func publishPendingEdits() {
        applyPendingEdits()
        let changed = unpublishedEdits
        unpublishedEdits = []
        if changed.count == 1, let path = changed.first {
            publish(version: documents[path]?.version, path: path)
        } else if !changed.isEmpty {
            publish(version: nil, path: nil)
        }
    }
}
