import FlowTestSupport
import Foundation
import Testing

/// `flowpkg dap`'s answers added for issue 46 (stable thread ids, log points on every hit,
/// function breakpoints, exceptionInfo, REPL completions, attach from serve's parent folder)
/// and issue 45 (a spec file launched with breakpoints), each a scenario of
/// `DapClient/features.py` driven through debugpy's message channel, which asserts what the
/// editor is shown.
@Suite(.serialized) struct DapFeatureTests {
    private func run(_ scenario: String) throws {
        try DapCommandTests.run(scenario, script: "features.py")
    }

    @Test func theMainThreadKeepsItsIdWhenACoroutineStops() throws { try run("thread_ids_stable") }
    @Test func aLogPointLogsOnEveryHitTheCallSteppedIntoIncluded() throws { try run("logpoint_every_hit") }
    @Test func functionBreakpointsStopOnTheFunctionsFirstLine() throws { try run("function_breakpoints") }
    @Test func exceptionInfoNamesTheErrorStoppedOn() throws { try run("exception_info") }
    @Test func replCompletionsListLocalsGlobalsAndFields() throws { try run("repl_completions") }
    @Test func attachMapsFramesToFilesWhenServeRunsInTheParentFolder() throws {
        try run("attach_from_the_parent_folder")
    }

    /// A spec of a project made by `flowpkg new`, luassert added from a local rocks server as
    /// `flowpkg test` needs it, launched as editors launch it: stops in the spec, steps into
    /// the module, and the run passes.
    @Test func launchASpecFileStopsAtItsBreakpoints() throws {
        let cache = try Scratch("dap-cache")
        defer { cache.remove() }
        try DapCommandTests.run("launch_spec", script: "features.py", environment: ["FLOWPKG_CACHE": cache.url.path]) {
            work in
            let made = try FlowpkgProcess.run(["new", "app", "--template", "console-app"], in: work)
            #expect(made.status == 0, "\(made.stderr)")
            let server = try LocalRocksServer(in: work)
            try server.publishAssertions()
            let added = try FlowpkgProcess.run(
                ["add", "--dev", "luassert", "--rocks-server", server.folder.path],
                in: work.appendingPathComponent("app"), environment: ["FLOWPKG_CACHE": cache.url.path])
            #expect(added.status == 0, "\(added.stderr)")
        }
    }
}
