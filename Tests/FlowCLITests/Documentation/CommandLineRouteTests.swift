@testable import FlowCLI
import Testing

/// Each form of command line goes to the one reader that can read it (`CommandLineRoute`).
@Suite struct CommandLineRouteTests {
    let commands = Flowpkg.commandNames

    @Test func eachFormGoesToItsReader() {
        guard case .help(let text, isError: false) = CommandLineRoute.route(["help", "FP304"], commands: commands)
        else { Issue.record("help FP304 is not a help page"); return }
        #expect(text.hasPrefix("FP304"))
        guard case .help(_, isError: true) = CommandLineRoute.route(["help", "nonsense"], commands: commands) else {
            Issue.record("an unknown help word is not a usage error")
            return
        }
        // lua5.4's own command line: everything after the script is the script's.
        guard case .loneScript(let script) = CommandLineRoute.route(["tool.lua", "--help", "-v"], commands: commands)
        else { Issue.record("a script is not run as lua5.4 runs it"); return }
        #expect(script.arguments.suffix(3) == ["tool.lua", "--help", "-v"])
        guard case .loneScript = CommandLineRoute.route(["-e", "print(1)"], commands: commands) else {
            Issue.record("-e is not lua5.4's")
            return
        }
        guard case .run(let run) = CommandLineRoute.route(["run", "App", "--trace"], commands: commands) else {
            Issue.record("run is not parsed alone")
            return
        }
        #expect(run.path == "App" && run.trace)
        guard case .slip(let slip) = CommandLineRoute.route(["export", "--version", "1.2"], commands: commands) else {
            Issue.record("export --version 1.2 is not caught")
            return
        }
        #expect(slip.contains("--package-version"), "\(slip)")
        // Help for a command, and every other command, is ArgumentParser's.
        for arguments in [["help", "validate"], ["validate", "App"], ["run", "--no-such-option"], []] {
            guard case .command = CommandLineRoute.route(arguments, commands: commands) else {
                Issue.record("\(arguments) does not go to ArgumentParser")
                continue
            }
        }
    }
}
