import ContentLengthFraming
import FlowDiagnostics
import FlowProject
import FlowSupport
import LanguageServerProtocol

/// Publishes the project's findings from a thread of its own, so the server answers
/// completion, hover and the rest while the project-wide rules run over a snapshot of the
/// session: on a project of thousands of modules they take a second, and completion after an
/// edit must answer in milliseconds (issue 47).
///
/// One job waits at most: a newer snapshot replaces one not yet started, so a burst of edits
/// is checked once, and findings go out in the order their snapshots were taken.
final class DiagnosticsPublisher: @unchecked Sendable {
    /// The findings of `snapshot` to publish for `workspace`; `version` is `path`'s (the edited
    /// document's), which is published even when its findings did not change.
    struct Job {
        var workspace: Workspace
        var snapshot: ValidationSnapshot
        var documents: [String: OpenDocument]
        var version: Int?
        var path: String?
    }

    private let writer: MessageWriter
    private let condition = Condition()
    private var pending: Job?
    private var isStarted = false
    private var isStopping = false

    init(writer: MessageWriter) {
        self.writer = writer
    }

    /// Publishes `job` once the job being published (if any) is done, in place of any waiting.
    func submit(_ job: Job) {
        var job = job
        condition.lock()
        defer { condition.unlock() }
        guard !isStopping else { return }
        // Two edited documents in one job: neither's version names the whole list.
        if let older = pending, older.workspace === job.workspace, let olderPath = older.path, olderPath != job.path {
            job.version = nil
            job.path = nil
        }
        pending = job
        if !isStarted {
            isStarted = true
            // A roomy stack: the project rules may read a `.luacheckrc` through Lua.
            DetachedThread.start(name: "flowpkg-publish", stackSize: 64 << 20) { [self] in work() }
        }
        condition.broadcast()
    }

    /// Drops what waits, and ends the thread once the job being published (if any) is done:
    /// the server's `exit` does not wait for a project's rules to finish.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        isStopping = true
        pending = nil
        condition.broadcast()
    }

    private func work() {
        while let job = next() {
            let current = job.snapshot.diagnosticsByFile()
            let messages = job.workspace.changedDiagnostics(
                current, documents: job.documents, version: job.version, versionPath: job.path)
            for message in messages { writer.send(OutgoingMessage(message)) }
        }
    }

    /// The job to publish next; nil once stopping (the thread then ends).
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while pending == nil && !isStopping { condition.wait() }
        guard let job = pending else { return nil }
        pending = nil
        return job
    }
}
