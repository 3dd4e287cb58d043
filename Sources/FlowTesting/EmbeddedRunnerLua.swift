import FlowLua

/// The runner's Lua files and the coverage report's page files, compiled in from `Embedded/` by
/// the EmbedTemplates plugin.
enum EmbeddedRunnerLua {
    /// One spec file's run with busted's API (`Embedded/lua/runner.lua`).
    static let runner = EmbeddedLua.text("lua/runner.lua", in: embeddedTemplateFiles)
    /// `.busted` evaluated within bounds, and spec file names matched against its patterns.
    static let configuration = EmbeddedLua.text("lua/configuration.lua", in: embeddedTemplateFiles)

    /// A file of the HTML coverage report (`Embedded/coverage/NAME`): a page, a row or the style.
    static func coverageFile(_ name: String) -> String {
        EmbeddedLua.text("coverage/" + name, in: embeddedTemplateFiles)
    }
}
