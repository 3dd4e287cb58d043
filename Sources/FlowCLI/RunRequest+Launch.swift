import FlowLiveDevelopment
import FlowProject
import FlowRuntime
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

extension RunRequest {
    /// What a run's launch prints and watches: its log and a failed start module on standard
    /// error (a project written for an app host says so), `--trace`'s loads, and the debug
    /// channel back to `flowpkg dap` when it launched this program (kept in `debugger`).
    func reportAndTrace(_ launch: inout PackageLaunch, target: RunTarget, debugger: Locked<DebugLaunch?>) {
        launch.log = { line in
            fflush(nil)  // Lua's print writes through C stdio
            Self.standardError(line + "\n")
        }
        // A project written for an app host says so, instead of "module 'UIKit.UIView' not found".
        let folder = target.loader.sources.lazy.compactMap { $0 as? ProjectFolderSource }.first
        launch.startModuleFailed = { error in
            fflush(nil)  // Lua's print writes through C stdio
            let hostless = folder.flatMap {
                HostlessEnvironment.problem(
                    environment: $0.project.projectFile.environment, root: $0.project.root, error: "\(error)")
            }
            Self.standardError("error: \(hostless ?? "\(error)")\n")
        }
        launch.prepare = { [trace] context in
            if trace {
                context.loader.observeLoads { item in
                    fflush(nil)  // Lua's print writes through C stdio: keep the two in order
                    Self.standardError("trace: \(TerminalText.escaped("\(item)"))\n")
                }
            }
            // `flowpkg dap` launched this program: its engine connects back before any module runs.
            // It belongs to its debugger: one that goes away (killed, or its editor closed) ends it,
            // as a hang-up would.
            let started = DebugLaunch.startIfAsked(context: context) {
                Self.standardError("error: the debugger that launched this program has gone\n")
                _exit(128 + SIGHUP)
            }
            if let started { debugger.withLock { $0 = started } }
        }
    }
}
