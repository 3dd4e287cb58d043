import FlowProject
import FlowRuntime
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

/// `flowpkg test`'s steps around the kit: where the project is, running the plan in the
/// project folder, and printing the report in the format asked for.
enum TestCommandLine {
    /// The project folder and the spec paths: a first argument that is a project folder is the
    /// project; otherwise every argument is a spec path and the project is found from here upward.
    static func split(_ arguments: [String]) -> (URL, [String]) {
        if let first = arguments.first {
            var isDirectory = false
            let candidate = URL(fileURLWithPath: first).appendingPathComponent(ProjectLocation.projectFileName).path
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory {
                return (URL(fileURLWithPath: first), Array(arguments.dropFirst()))
            }
        }
        return (ProjectLocation.resolve(nil).url, arguments)
    }

    static func reportOpenFailure(_ error: RunTargetError) {
        if case .projectHasErrors(let diagnostics) = error {
            let renderer = DiagnosticRenderer(
                format: .text, useColor: Terminal.supportsColor(fileDescriptor: STDERR_FILENO),
                workingDirectory: Terminal.workingDirectory)
            StandardStream.error.write(
                diagnostics.filter { $0.severity == .error }.map { renderer.text($0) + "\n" }.joined())
        }
        StandardStream.error.write("error: \(TerminalText.runError(error))\n")
    }

    /// Runs `plan` in the project folder (specs read data files relative to it, as under
    /// busted) and prints the report; returns the exit status.
    /// `--coverage`: where the reports go, and the least percentage that passes.
    struct Coverage {
        var folder: String
        var minimum: Double?
    }

    static func run(_ plan: SpecPlan, target: TestTarget, root: String, format: TestFormat?, coverage: Coverage?)
        -> Int32
    {
        var plan = plan
        plan.options.coverage = coverage != nil
        if coverage != nil {
            do {
                plan.options.coverageFiles = try coveredModules(of: target, root: root)
            } catch {
                StandardStream.error.write("error: \(error)\n")
                return 1
            }
        }
        let format = format ?? plan.output.flatMap(TestFormat.init(bustedOutput:)) ?? .text
        guard chdir(root) == 0 else {
            StandardStream.error.write("error: cannot enter the project folder \(root)\n")
            return 1
        }
        let suite = TestSuite(
            root: root, files: plan.files, identifier: target.project.identifier, sources: [target.source],
            externalModules: target.project.projectFile.externalModules)
        let progress = format == .text && !plan.options.list && isatty(STDERR_FILENO) == 1
        let showProgress: @Sendable (SpecFileResult) -> Void = {
            StandardStream.error.write(TestTextReport.progress($0))
        }
        let debugging = SpecDebugging(root: root)
        if debugging != nil { plan.options = SpecDebugging.options(plan.options) }
        var contextReady: (@Sendable (LuaContext, String) -> Void)?
        if let debugging { contextReady = { debugging.contextReady($0, file: $1) } }
        let report = TestRunner.run(
            suite, options: plan.options, fileDone: progress ? showProgress : nil, contextReady: contextReady)
        debugging?.finish()
        if progress { StandardStream.error.write("\n") }
        if let missing = report.missingModule {
            // A stale lock or a missing cache is why a locked luassert was not loaded: say so first.
            let renderer = DiagnosticRenderer(
                format: .text, useColor: false, workingDirectory: Terminal.workingDirectory)
            StandardStream.error.write(target.warnings.map { renderer.text($0) + "\n" }.joined())
            StandardStream.error.write(missingModuleMessage(missing))
            return 1
        }
        fflush(nil)  // what the specs printed goes first
        StandardStream.output.write(render(report, format: format, plan: plan))
        var status: Int32 = report.succeeded ? 0 : 1
        if let coverage, !plan.options.list, !writeCoverage(report, plan.options.coverageFiles, root: root, coverage) {
            status = 1
        }
        return status
    }

    /// The one message for a module busted's API needs that the project lacks (luassert, say).
    static func missingModuleMessage(_ missing: String) -> String {
        "error: the specs need \(missing), which is not among the project's dev dependencies; "
            + "add it with: flowpkg add --dev \(missing)\n"
    }

    /// `--watch`: runs `plan` in the project folder, then again at each save, until Ctrl-C.
    static func watch(
        _ plan: SpecPlan, target: TestTarget, root: String, format: TestFormat?, replan: @escaping () -> [String]?
    ) -> Int32 {
        let format = format ?? plan.output.flatMap(TestFormat.init(bustedOutput:)) ?? .text
        guard chdir(root) == 0 else {
            StandardStream.error.write("error: cannot enter the project folder \(root)\n")
            return 1
        }
        let suite = TestSuite(
            root: root, files: plan.files, identifier: target.project.identifier, sources: [target.source],
            externalModules: target.project.projectFile.externalModules)
        TestWatchLoop.run(plan, suite: suite, target: target, format: format, replan: replan)
    }

    /// Writes the reports for the project's own modules; false when they cannot be written or
    /// the coverage is below the minimum.
    private static func writeCoverage(_ report: TestReport, _ modules: [String], root: String, _ coverage: Coverage)
        -> Bool
    {
        let coverageReport = CoverageReport.make(root: root, modules: modules, lineHits: report.lineHits)
        let percent = String(printf: "%.2f", coverageReport.percent)
        do {
            let written = try coverageReport.write(to: coverage.folder, sourceRoot: root)
            let shown = written.map { PathText.relative($0, from: Terminal.workingDirectory) }
            StandardStream.error.write("coverage: \(percent)% of lines (\(shown.joined(separator: ", ")))\n")
        } catch {
            StandardStream.error.write("error: cannot write the coverage reports in \(coverage.folder): \(error)\n")
            return false
        }
        if let minimum = coverage.minimum, coverageReport.percent < minimum {
            StandardStream.error.write("error: coverage \(percent)% is below --coverage-min \(minimum)\n")
            return false
        }
        return true
    }

    /// The project's own modules (not specs, not dependencies), relative to the project folder,
    /// that `.luacov`'s include and exclude keep.
    private static func coveredModules(of target: TestTarget, root: String) throws -> [String] {
        let project = target.project
        let own = project.modules.filter { $0.dependency == nil && !project.isSpec($0) }.map {
            PathText.relative(RunTarget.lexicallyStandardized($0.file.path), from: root)
        }
        return try LuacovConfiguration.read(inProject: root)?.included(own) ?? own
    }

    static func render(_ report: TestReport, format: TestFormat, plan: SpecPlan) -> String {
        if plan.options.list { return TestTextReport.list(report) }
        switch format {
        case .text: return TestTextReport.text(report, useColor: Terminal.supportsColor())
        case .json: return JSONReport.text(BustedJSON(report, shuffled: plan.options.shuffle))
        case .junit: return TestJUnitReport.xml(report)
        case .tap: return TestTAPReport.text(report)
        case .github: return TestTextReport.github(report)
        }
    }
}
