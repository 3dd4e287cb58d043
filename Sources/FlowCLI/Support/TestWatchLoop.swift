import Dispatch
import FlowLiveServer
import FlowProject
import FlowSupport
import FlowTesting
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

/// `flowpkg test --watch`: every spec file once, then, at each save of a `.lua` file under the
/// project folder, only the spec files whose last run required it (FlowTesting's
/// `RequireGraph`), each rerun's report printed as it ends. Runs until Ctrl-C.
enum TestWatchLoop {
    /// `plan` is the first run's; `replan` finds the spec files again after a save (a new spec
    /// file runs at once).
    static func run(
        _ plan: SpecPlan, suite: TestSuite, target: TestTarget, format: TestFormat,
        replan: @escaping () -> [String]?
    ) -> Never {
        // Ctrl-C and SIGTERM end the watch at once (128 + the signal), even when flowpkg was
        // started with them blocked, as a test runner's children are.
        Interrupt.install(.exitAtOnce)
        let root = suite.root
        var graph = RequireGraph()
        var snapshot = SourceSnapshot(root: root)
        let first = TestRunner.run(suite, options: plan.options)
        graph.record(first)
        show(first, format: format, plan: plan)
        let moduleNames = Dictionary(
            target.project.modules.filter { $0.dependency == nil }.map {
                (PathText.relative(RunTarget.lexicallyStandardized($0.file.path), from: root), "\($0.name)")
            }, uniquingKeysWith: { first, _ in first })
        let saved = DispatchSemaphore(value: 0)
        let rootURL = URL(fileURLWithPath: root)
        let watcher = FileWatcher(root: rootURL, folders: { [rootURL] }) { saved.signal() }
        watcher.start()
        StandardStream.error.write("watch: waiting for saves in \(shown(root)) (Ctrl-C ends)\n")
        while true {
            saved.wait()
            let now = SourceSnapshot(root: root)
            let changed = now.changes(since: snapshot)
            snapshot = now
            guard !changed.isEmpty else { continue }
            let specs = graph.affected(by: changed, moduleNames: moduleNames, specs: replan() ?? suite.files)
            let names = changed.joined(separator: ", ")
            guard !specs.isEmpty else {
                StandardStream.error.write("watch: \(names) saved; no spec file requires it\n")
                continue
            }
            StandardStream.error.write("watch: \(names) saved; running \(specs.joined(separator: ", "))\n")
            var again = suite
            again.files = specs
            let report = TestRunner.run(again, options: plan.options)
            graph.record(report)
            show(report, format: format, plan: plan)
        }
    }

    private static func show(_ report: TestReport, format: TestFormat, plan: SpecPlan) {
        if let missing = report.missingModule {
            StandardStream.error.write(TestCommandLine.missingModuleMessage(missing))
            return
        }
        fflush(nil)
        StandardStream.output.write(TestCommandLine.render(report, format: format, plan: plan))
    }

    private static func shown(_ path: String) -> String {
        let relative = PathText.relative(path, from: Terminal.workingDirectory)
        return relative.isEmpty ? "." : relative
    }
}
