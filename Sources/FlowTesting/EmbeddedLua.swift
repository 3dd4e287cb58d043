#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The runner's Lua files and the coverage report's pages, compiled in from `Embedded/` by the
/// EmbedTemplates plugin.
enum EmbeddedLua {
    /// One spec file's run with busted's API (`Embedded/lua/runner.lua`).
    static let runner = text("lua/runner.lua")
    /// `.busted` evaluated within bounds, and spec file names matched against its patterns.
    static let configuration = text("lua/configuration.lua")

    /// The file at `path` under `Embedded/`, as text.
    static func text(_ path: String) -> String {
        // The plugin wrote this base64 itself: a missing or broken entry is a broken build.
        guard let entry = embeddedTemplateFiles.first(where: { $0.path == path }),
            let data = Data(base64Encoded: entry.base64)
        else { preconditionFailure("the embedded file \(path) is missing from the build") }
        return String(decoding: data, as: UTF8.self)
    }
}
