import ArgumentParser
import FlowPackage

/// The `flowpkg` command: scaffolds, checks, packages and runs Lua projects.
public struct Flowpkg: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "flowpkg",
        abstract: "Build, check and package Lua apps for native hosts.",
        discussion: """
            A project is a folder with a flowpkg.json, Lua modules under Sources/ and \
            resources under Resources/. See the README for a walk-through.
            """,
        version: ToolVersion.current,
        subcommands: [
            New.self,
            Templates.self,
            Validate.self,
            Export.self,
            Inspect.self,
            Verify.self,
            Run.self,
            Serve.self,
            Keygen.self,
            Publish.self,
        ]
    )

    public init() {}
}
