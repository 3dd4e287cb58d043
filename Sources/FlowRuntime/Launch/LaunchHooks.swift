import FlowLoader
import FlowPackage

/// The development monitor for a ``PackageLaunch``: FlowLiveDevelopment's `LiveLaunch` is the
/// one a debug host uses; the protocol lives here because FlowLiveDevelopment depends on
/// FlowRuntime. A release host passes none, and nothing listens or reads anything remote.
public protocol LaunchLiveSource {
    /// Called for each context before it is made (a launch that falls back makes two):
    /// what the monitor needs of it (`options.output`, to send the output back), and the
    /// attachment that connects once the context exists.
    func prepare(loader: Loader, options: inout LuaContext.Options) -> any LaunchLiveAttachment
}

/// One context's connection to the live source.
public protocol LaunchLiveAttachment: AnyObject, Sendable {
    /// Connects (waiting up to the monitor's connection timeout) and keeps `context` in step
    /// with the live source; `primary` is the kind of the source it runs without one.
    func attach(to context: LuaContext, primary: SourceKind)
    /// The start module failed with `message`: the live source is told.
    func startModuleFailed(_ message: String)
    /// Sends one line of the host's own log to the live source (shown with the program's output).
    func post(log line: String)
    /// Stops following the live source; called before the context is terminated.
    func stop()
    /// How to make more contexts like this one, before `attach`: where specs run for
    /// `flowpkg test --live`, each file in a fresh context with the host's API.
    func offer(_ contexts: LaunchContexts)
}

extension LaunchLiveAttachment {
    public func offer(_ contexts: LaunchContexts) {}
}

/// Makes fresh contexts like a launch's own: the same package identifier, its sources as they
/// are when one is made (the live source first when it serves), the same options, and the
/// launch's `prepare` (the host's functions and globals) run on each.
public struct LaunchContexts: @unchecked Sendable {
    // @unchecked: `make` calls the host's `prepare`, which a host writes to run on each new
    // context from the thread that makes it, as `PackageLaunch` itself does.
    private let maker: () throws -> LuaContext
    /// The package the contexts run.
    public let identifier: PackageIdentifier

    public init(identifier: PackageIdentifier, _ make: @escaping () throws -> LuaContext) {
        self.identifier = identifier
        maker = make
    }

    /// A fresh context, prepared; the caller terminates it.
    public func make() throws -> LuaContext { try maker() }
}
