import FlowLoader
import FlowPackage

/// A downloaded update serving a context: an `EmbeddedPackageSource` over the stored file
/// (every module checked at open, every resource as it is read), shown as `update` in traces.
public final class UpdatePackageSource: PackageSource {
    public let kind = SourceKind.downloadedUpdate
    public var location: String { package.location }
    public var identifier: PackageIdentifier { package.identifier }
    public var manifest: Manifest { package.manifest }
    public var startModule: ModuleName? { package.startModule }
    public var externalModules: [String] { package.externalModules }
    private let package: EmbeddedPackageSource

    public init(_ package: EmbeddedPackageSource) { self.package = package }

    public func module(named name: ModuleName) throws -> ModuleCode? { try package.module(named: name) }
    public func resource(_ key: ResourceKey) throws -> [UInt8]? { try package.resource(key) }
}
