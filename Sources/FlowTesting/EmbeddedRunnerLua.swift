import FlowLua

/// The runner's Lua files, compiled in from `Embedded/lua/` by the EmbedTemplates plugin.
enum EmbeddedRunnerLua {
    /// One spec file's run with busted's API (`Embedded/lua/runner.lua`).
    static let runner = EmbeddedLua.text("lua/runner.lua", in: embeddedTemplateFiles)
    /// `.busted` evaluated within bounds, and spec file names matched against its patterns.
    static let configuration = EmbeddedLua.text("lua/configuration.lua", in: embeddedTemplateFiles)
}
