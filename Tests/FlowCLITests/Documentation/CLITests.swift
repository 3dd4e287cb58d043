import FlowTestSupport
import Foundation
import Testing

@Suite struct CLITests {
    @Test func versionAndHelp() throws {
        let version = try FlowpkgProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
        let help = try FlowpkgProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: flowpkg"))
    }

    @Test func unknownCommandIsAUsageError() throws {
        let result = try FlowpkgProcess.run(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("frobnicate"))
    }
}
