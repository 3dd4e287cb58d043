import FlowDiagnostics
import FlowTestSupport
import Foundation
import Testing

@testable import FlowProject

/// On a project of many modules the lint rules run on a thread of their own beside the project
/// rules (`Validator.largeProject`): the report is the same as the serial
/// step's, every lint and project finding kept, in the report's order.
@Suite struct ConcurrentLintRulesTests {
    func report(modules count: Int) throws -> [String] {
        let root = try Scratch("many").url
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data(#"{"name": "M", "identifier": "com.example.m", "version": "1.0.0"}"#.utf8)
            .write(to: root.appendingPathComponent("flowpkg.json"))
        try Data("for i = 1, \(count - 1) do require(\"m\" .. i) end\n".utf8)
            .write(to: root.appendingPathComponent("Sources/main.lua"))
        for index in 1..<count {
            // A lint finding (an unused local, FP421) and a project finding (a require of a
            // module nobody provides) in each module.
            let text = "local unused = \(index)\nlocal missing = require \"absent\(index)\"\nreturn missing\n"
            try Data(text.utf8).write(to: root.appendingPathComponent("Sources/m\(index).lua"))
        }
        return Validator.validate(projectAt: root).diagnostics.map {
            "\($0.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""):\($0.line ?? 0):\($0.code.code)"
        }
    }

    func expected(modules count: Int) -> [String] {
        (1..<count).map { "m\($0).lua" }.sorted().flatMap { ["\($0):1:FP421", "\($0):2:"] }
    }

    @Test func everyFindingIsKeptBelowAndAboveTheThreshold() throws {
        for count in [Validator.largeProject - 1, Validator.largeProject + 40] {
            let found = try report(modules: count)
            let unused = found.filter { $0.hasSuffix(":1:FP421") }
            let requires = found.filter { $0.contains(":2:") }
            #expect(unused.count == count - 1, "modules: \(count)")
            #expect(requires.count == count - 1, "modules: \(count)")
            // Both kinds of finding stay together per file, in the report's order.
            #expect(
                found.map { $0.hasSuffix("FP421") ? $0 : String($0.prefix { $0 != ":" }) + ":2:" }
                    .filter { $0.hasSuffix(":1:FP421") || $0.hasSuffix(":2:") } == expected(modules: count))
        }
    }
}
