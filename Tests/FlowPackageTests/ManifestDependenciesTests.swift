import FlowPackage
import Testing

/// The manifest's `dependencies` list: written only when there are some, read back as written.
@Suite struct ManifestDependenciesTests {
    func manifest() throws -> Manifest {
        var manifest = Manifest(
            identifier: try PackageIdentifier("com.example.app"), name: "app", version: "1.0.0",
            startModule: try ModuleName("Main"),
            modules: [
                Manifest.Module(
                    name: try ModuleName("Main"), path: "modules/Main.lua", size: 1,
                    sha256: String(repeating: "a", count: 64)),
                Manifest.Module(
                    name: try ModuleName("inspect"), path: "modules/inspect.lua", size: 2,
                    sha256: String(repeating: "b", count: 64)),
            ],
            resources: [], digest: "")
        manifest.digest = manifest.computedDigest
        return manifest
    }

    @Test func aPackageWithoutDependenciesKeepsItsBytes() throws {
        let plain = try manifest()
        #expect(!String(decoding: plain.jsonBytes(), as: UTF8.self).contains("dependencies"))
    }

    @Test func dependenciesRoundTripAndLeaveTheDigestAlone() throws {
        let plain = try manifest()
        var withOrigins = plain
        withOrigins.dependencies = [
            Manifest.Dependency(name: "inspect", kind: "rock", version: "3.1.1-1", modules: [try ModuleName("inspect")])
        ]
        let bytes = withOrigins.jsonBytes()
        #expect(
            String(decoding: bytes, as: UTF8.self).contains(
                #"{"name": "inspect", "kind": "rock", "version": "3.1.1-1", "modules": ["inspect"]}"#))
        let decoded = try Manifest.decode(bytes, packagePath: "app.luapkg")
        #expect(decoded.dependencies == withOrigins.dependencies)
        #expect(decoded.digest == plain.digest)
        #expect(decoded.dependency(providing: try ModuleName("inspect"))?.name == "inspect")
        #expect(decoded.dependency(providing: try ModuleName("Main")) == nil)
    }
}
