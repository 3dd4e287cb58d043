import FlowLoader
import FlowPackage
// Foundation, not FoundationEssentials: `Bundle` is only there. What uses it is emitted into
// the host that calls it (@_alwaysEmitIntoClient), never into FlowRuntime's own objects (see
// LuaContext+Package.swift: a Bundle symbol there made the static flowpkg link Foundation).
import Foundation

extension PackageLaunch {
    /// A launch of the `.luapkg` with `identifier` in `bundle`'s resources (an app's
    /// `Bundle.main`, or a SwiftPM target's `Bundle.module`, where FlowpkgBuildPlugin puts it).
    @_alwaysEmitIntoClient
    public init(
        package identifier: PackageIdentifier, bundle: Bundle, name: String? = nil,
        options: LuaContext.Options = .init()
    ) throws(LoaderError) {
        // Where a bundle keeps resources: its resource folder (`Contents/Resources` on macOS)
        // and, when different, the bundle's own folder (a flat SwiftPM resource bundle).
        var directories: [URL] = []
        for url in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0?.standardizedFileURL })
        where !directories.contains(url) {
            directories.append(url)
        }
        try self.init(package: identifier, in: directories, name: name, options: options)
    }
}
