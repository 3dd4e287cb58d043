import FlowTesting
import Foundation
import Testing

/// The runner against busted 2.1.1 itself (`lua5.4 /usr/bin/busted`) on the same spec files:
/// every outcome and full name, in order, with the same options.
@Suite struct BustedParityTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    struct Case: Sendable, CustomTestStringConvertible {
        var bustedArguments: [String]
        var options: TestOptions
        var testDescription: String { bustedArguments.joined(separator: " ") }
    }

    static let cases: [Case] = {
        var tagged = TestOptions()
        tagged.tags = ["fast"]
        var excluded = TestOptions()
        excluded.excludeTags = ["slow", "fast"]
        var filtered = TestOptions()
        filtered.filter = ["calc .*s$"]
        filtered.filterOut = ["spies"]
        return [
            Case(bustedArguments: [], options: TestOptions()),
            Case(bustedArguments: ["--tags=fast"], options: tagged),
            Case(bustedArguments: ["--exclude-tags=slow,fast"], options: excluded),
            Case(bustedArguments: ["--filter=calc .*s$", "--filter-out=spies"], options: filtered),
        ]
    }()

    @Test(arguments: cases) func outcomesAndNamesEqualBusted(_ example: Case) throws {
        let features = Self.fixtures.appendingPathComponent("features")
        let busted = try Self.busted(example.bustedArguments + ["spec/features_spec.lua"], in: features)
        #expect(busted.count >= 5)
        let project = try SpecProject(copying: features)
        defer { project.remove() }
        var suite = try project.suite()
        suite.files = ["spec/features_spec.lua"]
        let report = TestRunner.run(suite, options: example.options)
        #expect(report.records.map { "\($0.status.rawValue)\t\($0.name)" } == busted)
    }

    /// busted's outcomes through the fixture output handler: `status<TAB>full name` lines.
    static func busted(_ arguments: [String], in folder: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lua5.4")
        process.arguments =
            ["/usr/bin/busted", "-o", fixtures.appendingPathComponent("outcomes_handler.lua").path] + arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter {
            $0.contains("\t")
        }
    }
}
