import FlowTestSupport
import Foundation
import Testing

/// `flowpkg dap` driven by a scripted DAP client (`DapClient/dap_client.py`, debugpy's message
/// channel from PyPI over the adapter's stdin and stdout; without debugpy every scenario fails,
/// none is skipped): each scenario in `DapClient/scenarios.py`
/// launches the built binary as an editor would and checks what it answers.
@Suite(.serialized) struct DapCommandTests {
    static let scripts = CLITestFolder.url.appendingPathComponent(
        "DapClient")

    /// Runs one scenario in a fresh folder; its failure message is the test's.
    private func run(_ scenario: String) throws {
        try Self.run(scenario, script: "scenarios.py")
    }

    /// Runs `scenario` of `script` in a fresh folder, made ready by `prepare`, with
    /// `environment` added to the client's (and so to the adapter's and its program's).
    static func run(
        _ scenario: String, script: String, environment: [String: String] = [:],
        prepare: (URL) throws -> Void = { _ in }
    ) throws {
        let work = try Scratch("dap").url
        defer { try? FileManager.default.removeItem(at: work) }
        try prepare(work)
        let result = try FlowpkgProcess.run(
            [
                "python3", scripts.appendingPathComponent(script).path, scenario, FlowpkgProcess.executable.path,
                work.path,
            ],
            environment: environment, executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 0, "\(scenario): \(result.stderr)")
    }

    @Test func launchAProjectStopStepEvaluateAndExit() throws { try run("launch_project") }
    @Test func launchAPackageWithBreakpointsSetInTheProjectsFiles() throws { try run("launch_package") }
    @Test func conditionalHitCountAndLogPointsAndALineWithoutCodeMoves() throws { try run("breakpoint_kinds") }
    @Test func uncaughtAndRaisedErrorsStop() throws { try run("exception") }
    @Test func pauseATightLoopAndEvaluateInTheReplWhileItRuns() throws { try run("pause_and_repl") }
    @Test func aBreakpointSetLaterHitsInACoroutineCreatedBefore() throws { try run("coroutine") }
    @Test func badInputGetsAnErrorResponseAndTheAdapterGoesOn() throws { try run("bad_input") }
    @Test func aProgramWhoseAdapterIsKilledEnds() throws { try run("adapter_killed") }
    @Test func launchALoneScriptWithArgumentsCwdAndStopOnEntry() throws { try run("launch_script") }
    @Test func aLoneScriptStopsOnAnUncaughtError() throws { try run("script_exception") }
    @Test func eachSuspendedCoroutineIsAThreadWithItsStack() throws { try run("coroutine_threads") }
    @Test func stepOverStaysInTheCurrentCoroutine() throws { try run("next_stays_in_coroutine") }
    @Test func longStringsMetatablesAndSetVariable() throws { try run("variables") }
    @Test func attachThroughServeHitDetachAndTheProgramGoesOn() throws { try run("attach") }
    @Test func runLiveWaitsForADebuggerBeforeItsFirstLine() throws { try run("wait_for_debugger") }
}
