import FlowLiveProtocol
import FlowLoader
import FlowPackage
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The live development source as a `PackageSource`: modules, resources and scripts as the
/// developer's project has them on disk now, fetched from `flowpkg serve`.
///
/// It answers nil for what the live project does not have, and also when the connection has
/// dropped, so the embedded package serves instead and what is running keeps running.
public final class LiveSource: PackageSource, Sendable {
    public let kind = SourceKind.live
    public let identifier: PackageIdentifier
    public var location: String { client.baseURL.absoluteString }

    private let client: LiveHTTPClient
    private let current: Locked<LiveManifest>
    /// `DevelopmentMonitor.Configuration.projectFolder`.
    private let projectFolder: String?

    init(client: LiveHTTPClient, manifest: LiveManifest, identifier: PackageIdentifier, projectFolder: String? = nil) {
        self.client = client
        self.current = Locked(manifest)
        self.identifier = identifier
        self.projectFolder = projectFolder
    }

    /// A file the live source names, as the host names it.
    private func chunkName(_ file: String) -> String {
        guard let projectFolder, !projectFolder.isEmpty, projectFolder != ".", !file.hasPrefix("/") else { return file }
        return projectFolder.hasSuffix("/") ? projectFolder + file : projectFolder + "/" + file
    }

    /// The live manifest as last fetched.
    public var manifest: LiveManifest { current.withLock { $0 } }

    /// Fetches the manifest again (after a change event).
    public func refresh() throws(LiveSourceError) {
        let manifest = try client.manifest()
        current.withLock { $0 = manifest }
    }

    public func module(named name: ModuleName) throws -> ModuleCode? {
        guard let entry = manifest.modules.first(where: { $0.name == name }) else { return nil }
        guard let data = try? client.get(LiveProtocol.modulePath, query: ["name": name.rawValue]) else { return nil }
        return ModuleCode(
            name: name, chunkName: entry.file.map(chunkName) ?? entry.path, bytes: [UInt8](data), path: entry.path)
    }

    /// The script at `path` (relative to the sources folder), as the project has it now.
    public func script(atPath path: String) throws -> ScriptCode? {
        guard let entry = manifest.scripts.first(where: { $0.path == path }) else { return nil }
        guard let data = try? client.get(LiveProtocol.scriptPath, query: ["path": path]) else { return nil }
        return ScriptCode(path: path, chunkName: entry.file.map(chunkName) ?? path, bytes: [UInt8](data))
    }

    public func resource(_ key: ResourceKey) throws -> [UInt8]? {
        guard manifest.resources.contains(where: { $0.key == key }) else { return nil }
        guard let data = try? client.get(LiveProtocol.resourcePath, query: ["name": key.name, "type": key.type]) else {
            return nil
        }
        return [UInt8](data)
    }
}
