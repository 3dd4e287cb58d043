/// Verified updates for FlowRuntime's `PackageLaunch`: which package runs, and what happens
/// when an update's start module fails. FlowUpdates' `UpdateLaunch` is the one a host uses;
/// the protocol lives here, with the sources, because FlowUpdates needs no Lua runtime.
public protocol LaunchUpdates: AnyObject {
    /// The source this launch runs instead of `embedded` (a stored update that passes every
    /// rule), or nil to run `embedded`. `log` gets one line per decision.
    func chooseSource(embedded: EmbeddedPackageSource, log: (String) -> Void) -> (any PackageSource)?
    /// The chosen update's start module threw `error` before the launch was confirmed
    /// healthy: true when the embedded package should run now, in this same launch.
    func startModuleFailed(_ error: any Error, log: (String) -> Void) -> Bool
    /// The start module returned: the package that ran is confirmed healthy.
    func startModuleSucceeded()
}
