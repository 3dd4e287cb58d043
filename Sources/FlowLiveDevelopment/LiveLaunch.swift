import FlowLiveProtocol
import FlowLoader
import FlowPackage
import FlowRuntime
import FlowSupport

/// The development monitor for a launch (FlowRuntime's `PackageLaunch.live`): each context
/// the launch makes follows the live source `configuration` names (``LiveSession/attach(to:configuration:primary:log:afterChange:reporter:prepare:)``),
/// and what the program writes, its errors, reloads and loads go back to it.
public struct LiveLaunch: LaunchLiveSource {
    public var configuration: DevelopmentMonitor.Configuration
    /// Whether the program's output, errors and loads go back to the live source.
    public var reports: Bool
    /// One line per event (connected, refused, a change applied or failing), and the
    /// reporter's own warnings.
    public var log: @Sendable (String) -> Void
    /// Runs after each change is applied (`flowpkg run` flushes standard output there).
    public var afterChange: @Sendable () -> Void
    /// Sees each session before it connects (to register `LiveSession.onRefused`, say).
    public var prepareSession: (LiveSession) -> Void
    /// Runs once the context follows the live source, before its start module runs, with the
    /// program as the live source knows it (nil when nothing is reported): where a debug
    /// channel through the live source starts (`flowpkg run --live`).
    public var didAttach: (LuaContext, LiveProgram?) -> Void = { _, _ in }

    public init(
        configuration: DevelopmentMonitor.Configuration, reports: Bool = true,
        log: @escaping @Sendable (String) -> Void = LiveSession.logToStandardError,
        afterChange: @escaping @Sendable () -> Void = {},
        prepareSession: @escaping (LiveSession) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.reports = reports
        self.log = log
        self.afterChange = afterChange
        self.prepareSession = prepareSession
    }

    public func prepare(loader: Loader, options: inout LuaContext.Options) -> any LaunchLiveAttachment {
        var reporter: LiveReporter?
        if reports {
            // The package's version and digest, when a package is what runs.
            let package = loader.sources.lazy.compactMap { $0 as? EmbeddedPackageSource }.first?.manifest
            let program = LiveReporter.thisProgram(
                identifier: loader.identifier.rawValue, version: package?.version, digest: package?.digest)
            let made = LiveReporter(configuration: configuration, program: program, log: log)
            // What Lua writes also goes back to the live source.
            if let earlier = options.output {
                options.output = { isError, text in
                    earlier(isError, text)
                    made.outputHandler(isError, text)
                }
            } else {
                options.output = made.outputHandler
            }
            reporter = made
        }
        return LiveAttachment(launch: self, reporter: reporter)
    }
}

/// One context following the live source.
final class LiveAttachment: LaunchLiveAttachment, @unchecked Sendable {
    // @unchecked: `launch` (its closures) is only read on the launching thread, in `attach`.
    private let launch: LiveLaunch
    private let reporter: LiveReporter?
    private let session = Locked<LiveSession?>(nil)
    private let debugChannel = Locked<DebugLiveChannel?>(nil)
    private let contexts = Locked<LaunchContexts?>(nil)
    private let testChannel = Locked<TestLiveChannel?>(nil)

    init(launch: LiveLaunch, reporter: LiveReporter?) {
        self.launch = launch
        self.reporter = reporter
    }

    func attach(to context: LuaContext, primary: SourceKind) {
        let attached = LiveSession.attach(
            to: context, configuration: launch.configuration, primary: primary, log: launch.log,
            afterChange: launch.afterChange, reporter: reporter,
            prepare: launch.prepareSession)
        session.withLock { $0 = attached }
        // A debugger attaches through the live source (the program is known to it by the
        // reports); with `waitForDebugger`, the start module waits for one here.
        if launch.configuration.acceptsDebugger, let program = reporter?.program {
            do {
                let channel = try DebugLiveChannel.start(
                    context: context, configuration: launch.configuration, program: program)
                debugChannel.withLock { $0 = channel }
            } catch {
                launch.log("warning: no debugger can attach to this program: \(error)")
            }
        }
        // `flowpkg test --live` runs spec files here, each in a fresh context like this one.
        if let reporter, let contexts = contexts.withLock({ $0 }),
            let channel = TestLiveChannel(
                url: launch.configuration.url, token: launch.configuration.token, program: reporter.program,
                contexts: contexts, reporter: reporter)
        {
            testChannel.withLock { $0 = channel }
            channel.start()
        }
        launch.didAttach(context, reporter?.program)
    }

    func offer(_ contexts: LaunchContexts) {
        self.contexts.withLock { $0 = contexts }
    }

    func startModuleFailed(_ message: String) {
        reporter?.error(message, phase: .start)
    }

    func post(log line: String) {
        reporter?.log(line)
    }

    func stop() {
        testChannel.withLock { $0 }?.stop()
        debugChannel.withLock { $0 }?.stop()
        if let session = session.withLock({ $0 }) {
            session.stop()
        } else {
            // Never attached (the launch ended before the context was made).
            reporter?.stop()
        }
    }
}
