#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The LuaCATS definition files of each environment's globals, compiled into the binary from
/// its `Embedded/` folder by the `EmbedTemplates` build-tool plugin.
public enum EmbeddedDefinitions {
    /// Each file: its path below `Embedded/` (`lua/stdlib.lua`) and its bytes, sorted by path.
    public static var files: [(path: String, bytes: [UInt8])] {
        embeddedTemplateFiles.map { entry in
            // The embedder wrote this base64 itself; failing to decode it means a corrupt build.
            guard let data = Data(base64Encoded: entry.base64) else {
                preconditionFailure("embedded definition file \(entry.path) is not valid base64")
            }
            return (entry.path, [UInt8](data))
        }
    }
}
