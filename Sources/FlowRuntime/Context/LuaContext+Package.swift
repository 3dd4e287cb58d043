import FlowLoader
import FlowLua
import FlowPackage
// Foundation, not FoundationEssentials: `Bundle` is only there. What uses it is emitted into
// the host that calls it (@_alwaysEmitIntoClient), never into FlowRuntime's own objects: a
// Bundle symbol there made the static flowpkg link Foundation and ICU (102.6 MB, measured).
import Foundation

extension LuaContext {
    /// A context over the `.luapkg` with `identifier` among the packages in `directories`: the
    /// one call a host makes, naming its package once (it finds the file, opens and checks it,
    /// and builds the loader over it).
    ///
    /// Throws `LoaderError.packageNotFound` or `.ambiguousPackage` (listing every package
    /// found), or `.packageRefused` for a corrupt package; no Lua runs before that.
    public convenience init(
        package identifier: PackageIdentifier, in directories: [URL], name: String? = nil,
        options: Options = Options()
    ) throws {
        let url = try PackageLocator.locate(identifier, in: directories)
        let source = try EmbeddedPackageSource(contentsOf: url, expectedIdentifier: identifier)
        let loader = try Loader(identifier: identifier, sources: [source])
        try self.init(
            name: name ?? identifier.rawValue, packageIdentifier: identifier, loader: loader, options: options)
    }

    /// A context over the `.luapkg` with `identifier` in `bundle`'s resources (an app's
    /// `Bundle.main`, or a SwiftPM target's `Bundle.module`, where FlowpkgBuildPlugin puts it).
    @_alwaysEmitIntoClient
    public convenience init(
        package identifier: PackageIdentifier, bundle: Bundle, name: String? = nil,
        options: Options = Options()
    ) throws {
        // Where a bundle keeps resources: its resource folder (`Contents/Resources` on macOS)
        // and, when different, the bundle's own folder (a flat SwiftPM resource bundle).
        var directories: [URL] = []
        for url in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0?.standardizedFileURL })
        where !directories.contains(url) {
            directories.append(url)
        }
        try self.init(package: identifier, in: directories, name: name, options: options)
    }

    /// The start module the package names (`startModule` in flowpkg.json), from the first
    /// source that names one (an embedded package, a downloaded update); nil for a library
    /// package.
    public var startModule: ModuleName? {
        for source in loader.sources {
            if let start = source.startModule { return start }
        }
        return nil
    }

    /// Loads the package's start module and returns its first result; throws
    /// `LuaContextError.noStartModule` when the package names none.
    @discardableResult
    public func loadStartModule() throws -> LuaValue {
        guard let startModule else { throw LuaContextError.noStartModule(packageIdentifier) }
        return try loadModule(startModule)
    }
}
