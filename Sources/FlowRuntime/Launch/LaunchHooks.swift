import FlowLoader

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
}
