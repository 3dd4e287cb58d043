import ArgumentParser
import FlowTestSupport
import Foundation
import Testing

@testable import FlowCLI

/// `run` is parsed by ArgumentParser as that command alone (`Flowpkg.Run.parsedAlone`), so a
/// start-up does not pay for the root's tree of every command: for every plain run that reading
/// must equal the root's, and anything else (help, usage errors) must be left to the root's
/// parse, with its messages.
@Suite struct RunFastPathTests {
    private func same(_ lhs: Flowpkg.Run, _ rhs: Flowpkg.Run) -> Bool {
        lhs.path == rhs.path && lhs.identifier == rhs.identifier && lhs.sandbox == rhs.sandbox
            && lhs.trace == rhs.trace && lhs.verifyAll == rhs.verifyAll && lhs.arguments == rhs.arguments
            && lhs.live.url == rhs.live.url && lhs.live.watch == rhs.live.watch
            && lhs.updates.feed == rhs.updates.feed
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
        ["run", "App.luapkg", "--live", "http://127.0.0.1:7315", "--token", "t"],
        ["run", "App.luapkg", "--watch"],
    ])
    func plainRunsReadAsTheRootReadsThem(arguments: [String]) throws {
        let alone = try #require(Flowpkg.Run.parsedAlone(arguments))
        let root = try #require(try Flowpkg.parseAsRoot(arguments) as? Flowpkg.Run)
        #expect(same(alone, root))
    }

    @Test(arguments: [
        ["validate"],
        ["run", "--help"],
        ["run", "-h"],
        ["run", "App.luapkg", "extra"],
        ["run", "--identifier", "not an identifier", "App.luapkg"],
        ["run", "--identifier"],
        ["run", "--unknown", "App.luapkg"],
        ["run", "--live", "https://example.com"],
    ])
    func everythingElseIsLeftToTheRoot(arguments: [String]) {
        #expect(Flowpkg.Run.parsedAlone(arguments) == nil)
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

    @Test func aRunReadAloneBehavesAsTheRootsOne() throws {
        // The same package through both readings: same output, same status, same error text.
        let scratch = try Scratch("fastpath").url
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
        // A usage error is left to the root's parse, whose message names the option.
        let refused = try FlowpkgProcess.run(["run", scratch.path, "--bogus"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--bogus"), "\(refused.stderr)")
        let parsed = try FlowpkgProcess.run(["run", scratch.path, "--connection-timeout", "2", "--", "a", "b"])
        #expect(fast.status == 1)
        #expect(fast.stdout == "2\ta\tb\n\(scratch.path)/Sources/main.lua\n")
        #expect(fast.stdout == parsed.stdout)
        #expect(fast.stderr == parsed.stderr)
        #expect(fast.stderr.hasPrefix("error: "))
        #expect(fast.stderr.contains("main.lua:1: stop"))
    }
}
