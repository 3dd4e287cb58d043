import FlowLiveProtocol
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

extension TestCommandLine {
    /// Where `--live` sends the run: flowpkg serve's URL, its token, and the program named.
    struct LiveServerAddress {
        var url: URL
        var token: String
        var program: String?
    }

    /// `--live`: runs `plan` inside the program following the live source and prints the report
    /// as a local run does; returns the exit status.
    static func live(_ plan: SpecPlan, target: TestTarget, root: String, format: TestFormat?, server: LiveServerAddress)
        -> Int32
    {
        let format = format ?? plan.output.flatMap(TestFormat.init(bustedOutput:)) ?? .text
        let request: LiveTestRequest
        do {
            request = try LiveTestPlan.request(plan, root: root, target: target)
        } catch {
            StandardStream.error.write("error: \(error)\n")
            return 1
        }
        let progress = format == .text && !plan.options.list && isatty(STDERR_FILENO) == 1
        let outcome = LiveTestClient.run(
            request, url: server.url, token: server.token, program: server.program,
            fileDone: { if progress { StandardStream.error.write(TestTextReport.progress($0)) } })
        if progress { StandardStream.error.write("\n") }
        switch outcome {
        case .failed(let reason):
            StandardStream.error.write("error: \(TerminalText.escaped(reason))\n")
            return 1
        case .finished(let report, let program):
            if let program { StandardStream.error.write("test: ran in \(TerminalText.escaped(program.label))\n") }
            if let missing = report.missingModule {
                StandardStream.error.write(missingModuleMessage(missing))
                return 1
            }
            StandardStream.output.write(render(report, format: format, plan: plan))
            return report.succeeded ? 0 : 1
        }
    }
}
