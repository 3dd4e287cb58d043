import ArgumentParser
import FlowTestSupport
import Foundation
import Testing

@testable import FlowCLI

/// `run`'s common forms are read by hand, so a start-up does not pay for ArgumentParser: for
/// every such command line the hand reading must equal ArgumentParser's, and anything else
/// must be left to ArgumentParser (its help, its messages, the options only it knows).
@Suite struct RunFastPathTests {
    /// What ArgumentParser makes of `arguments` as `flowpkg`'s command line.
    private func parsed(_ arguments: [String]) throws -> RunRequest {
        let command = try Flowpkg.parseAsRoot(arguments)
        let run = try #require(command as? Flowpkg.Run)
        return RunRequest(
            path: run.path, identifier: run.identifier, sandbox: run.sandbox, trace: run.trace,
            verifyAll: run.verifyAll, live: nil, updates: nil, arguments: run.arguments)
    }

    private func same(_ lhs: RunRequest, _ rhs: RunRequest) -> Bool {
        lhs.path == rhs.path && lhs.identifier == rhs.identifier && lhs.sandbox == rhs.sandbox
            && lhs.trace == rhs.trace && lhs.verifyAll == rhs.verifyAll && lhs.arguments == rhs.arguments
            && lhs.live == nil && lhs.updates == nil
    }

    @Test(arguments: [
        ["run"],
        ["run", "App.luapkg"],
        ["run", "."],
        ["run", "App.luapkg", "--trace"],
        ["run", "--sandbox", "App.luapkg", "--verify-all", "--trace"],
        ["run", "--identifier", "com.example.app", "Packages"],
        ["run", "--identifier=com.example.app", "Packages"],
        ["run", "App.luapkg", "--", "-v", "--trace", "input.txt"],
        ["run", "--", "a", "b"],
        ["run", "App.luapkg", "--"],
        ["run", "dir with spaces/App.luapkg"],
    ])
    func commonFormsReadAsArgumentParserReadsThem(arguments: [String]) throws {
        let fast = try #require(RunRequest(commonForm: arguments))
        #expect(same(fast, try parsed(arguments)))
    }

    @Test(arguments: [
        ["validate"],
        ["run", "--help"],
        ["run", "-h"],
        ["run", "App.luapkg", "--live", "http://127.0.0.1:7315", "--token", "t"],
        ["run", "App.luapkg", "--updates", "feed", "--trusted-key", "k.pub"],
        ["run", "App.luapkg", "extra"],
        ["run", "App.luapkg", "--trace", "--trace"],
        ["run", "--identifier", "not an identifier", "App.luapkg"],
        ["run", "--identifier"],
        ["run", "--identifier", "--trace"],
        ["run", "--unknown", "App.luapkg"],
        ["run", "-"],
        ["run", ""],
    ])
    func everythingElseIsLeftToArgumentParser(arguments: [String]) {
        #expect(RunRequest(commonForm: arguments) == nil)
    }

    @Test func everyCommandIsNamedWithoutReflection() {
        // Explicit names keep suggestions and `--help` from deriving them from type names.
        for command in Flowpkg.configuration.subcommands {
            #expect(command.configuration.commandName == command._commandName)
            #expect(command.configuration.commandName != nil)
        }
        #expect(
            Flowpkg.commandNames
                == [
                    "new", "init", "templates", "validate", "fmt", "export", "inspect", "verify", "run", "serve",
                    "dev", "keygen", "publish", "lsp", "dap", "add", "remove", "update", "lock", "vendor", "tree",
                    "outdated",
                    "test",
                    "help",
                ])
    }

    @Test func theHandReadRunBehavesAsTheParsedOne() throws {
        // The same package through both readings: same output, same status, same error text.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fastpath-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(
            at: scratch.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try Data(
            #"{"name": "Fast", "identifier": "com.example.fast", "version": "1.0.0", "startModule": "main", "sources": ["Sources"]}"#
                .utf8
        )
        .write(to: scratch.appendingPathComponent("flowpkg.json"))
        try Data("print(select('#', ...), ...) print(arg[0]) error('stop')\n".utf8)
            .write(to: scratch.appendingPathComponent("Sources/main.lua"))
        let fast = try FlowpkgProcess.run(["run", scratch.path, "--", "a", "b"])
        // `--connection-timeout` (given its default) is an option only ArgumentParser reads.
        let parsed = try FlowpkgProcess.run(["run", scratch.path, "--connection-timeout", "2", "--", "a", "b"])
        #expect(fast.status == 1)
        #expect(fast.stdout == "2\ta\tb\n\(scratch.path)/Sources/main.lua\n")
        #expect(fast.stdout == parsed.stdout)
        #expect(fast.stderr == parsed.stderr)
        #expect(fast.stderr.hasPrefix("error: "))
        #expect(fast.stderr.contains("main.lua:1: stop"))
    }
}
