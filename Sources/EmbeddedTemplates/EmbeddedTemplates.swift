#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The bundled templates, compiled into the binary from the `Templates/` folder by the
/// `EmbedTemplates` build-tool plugin, so an installed `flowpkg` needs no files beside it.
public enum EmbeddedTemplates {
    /// Each embedded file: its path below `Templates/` (`console-app/template.json`), its bytes,
    /// and whether it was executable, sorted by path.
    public static var files: [(path: String, bytes: [UInt8], isExecutable: Bool)] {
        embeddedTemplateFiles.map { entry in
            // The embedder wrote this base64 itself; failing to decode it means a corrupt build.
            guard let data = Data(base64Encoded: entry.base64) else {
                preconditionFailure("embedded template file \(entry.path) is not valid base64")
            }
            return (entry.path, [UInt8](data), entry.executable)
        }
    }
}
