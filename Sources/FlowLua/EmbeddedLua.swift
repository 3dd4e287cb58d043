#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// FlowLua's own Lua files, compiled in from `Embedded/lua/` by the EmbedTemplates plugin.
package enum EmbeddedLua {
    /// lua.c's `main` for a lone script (`Embedded/lua/standalone.lua`).
    static let standalone = text("lua/standalone.lua", in: embeddedTemplateFiles)
    /// `LuaSandbox`'s driver: a project's Lua file run within its budget, its results copied out.
    static let sandbox = text("lua/sandbox.lua", in: embeddedTemplateFiles)
    /// The debugger's wrappers of `coroutine.resume`/`wrap`, `pcall` and `xpcall`.
    static let debugWrappers = text("lua/debug_wrappers.lua", in: embeddedTemplateFiles)

    /// The text of the file at `path` among a target's embedded files (what EmbedTemplates
    /// generates: path, base64 and executable bit); FlowTesting reads its runner with it too.
    package static func text(_ path: String, in files: [(path: String, base64: String, executable: Bool)]) -> String {
        // The plugin wrote this base64 itself: a missing or broken entry is a broken build.
        guard let entry = files.first(where: { $0.path == path }), let data = Data(base64Encoded: entry.base64)
        else { preconditionFailure("the embedded Lua file \(path) is missing from the build") }
        return String(decoding: data, as: UTF8.self)
    }
}
