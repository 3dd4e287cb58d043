import FlowLua
import FlowPackage
import Foundation

@testable import FlowDependencies
@testable import FlowProject

/// One input as an untrusted dependency file, and the rules reading it must keep: shared by
/// `DependencyFuzzTests` and the libFuzzer target (`Tests/Fuzz/run lock|rockspec|library`).
///
/// - lock: the bytes are `flowpkg.lock`; a lock that reads has only valid names, 64-hex hashes
///   and module paths that `vendor` writes inside `vendor/NAME/`; a refusal has words.
/// - rockspec: the bytes are a rockspec, evaluated as flowpkg reads one (the sandbox's budget);
///   it ends, and a refusal of it has words.
/// - library: the bytes are a `.luapkg` manifest; one that decodes is written as a real package
///   (its modules and dependencies list kept) and locked as a `{"package": …}` dependency, whose
///   entries must make a lock that reads, or be refused in words.
enum DependencyProbe {
    /// The rules `bytes` as a lock broke (empty when none was); `folder` must be empty or missing.
    static func lock(_ bytes: [UInt8], in folder: URL) -> [String] {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("flowpkg.lock").path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let lock: Lockfile?
        do {
            lock = try Lockfile.read(at: path)
        } catch {
            return "\(error)".isEmpty ? ["a lock refused without words"] : []
        }
        guard let lock else { return ["a lock that exists read as none"] }
        return vendorTargets(of: lock.dependencies, root: folder.path)
    }

    /// Every module of `dependencies` must have a valid name and hashes, and a vendor target
    /// inside `vendor/NAME/`.
    static func vendorTargets(of dependencies: [LockedDependency], root: String) -> [String] {
        var broken: [String] = []
        if let problem = Lockfile(dependencies: dependencies).problem {
            broken.append("a lock read though: \(problem)")
        }
        for dependency in dependencies {
            for module in dependency.modules {
                let target: String
                do {
                    target = try VendorFolder.prepare(root: root, dependency: dependency.name, path: module.path)
                } catch {
                    if "\(error)".isEmpty { broken.append("a vendor path refused without words") }
                    continue
                }
                let folder = root + "/vendor/" + dependency.name + "/"
                let standardized = URL(fileURLWithPath: target).standardizedFileURL.path
                if !standardized.hasPrefix(folder) || standardized.contains("/../") {
                    broken.append("vendor writes '\(module.path)' of '\(dependency.name)' to \(standardized)")
                }
            }
        }
        return broken
    }

    /// The rules `bytes` as a rockspec broke: its refusal, when there is one, has words, and the
    /// sandbox kept it within its memory budget.
    static func rockspec(_ bytes: [UInt8]) -> [String] {
        let source = String(decoding: bytes, as: UTF8.self)
        var broken: [String] = []
        if let refusal = Rockspec.refusal(ofRockspec: source, manifest: [:], rockspecName: "fuzz-1.0-1.rockspec"),
            refusal.isEmpty
        {
            broken.append("a rockspec refused without words")
        }
        let (modules, _) = Rockspec.cModules(ofRockspec: source)
        if modules.contains(where: \.isEmpty) { broken.append("a C module without a name") }
        return broken
    }

    /// The rules `bytes` as a library package's manifest broke.
    static func library(_ bytes: [UInt8], in folder: URL) -> [String] {
        guard let manifest = try? Manifest.decode(bytes, packagePath: "fuzz.luapkg") else { return [] }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var input = PackageInput(
            identifier: manifest.identifier, name: manifest.name, version: manifest.version,
            startModule: manifest.startModule,
            modules: manifest.modules.map { module in
                PackageInput.Module(
                    name: module.name, relativePath: String(module.path.dropFirst(PackagePath.modulesFolder.count)),
                    file: folder.appendingPathComponent("unused.lua"), contents: Array("return {}\n".utf8))
            }, resources: [])
        input.dependencies = manifest.dependencies
        let file = folder.appendingPathComponent("lib.luapkg")
        guard (try? PackageWriter.write(input, to: file)) != nil else { return [] }
        let cache = FileCache(root: folder.appendingPathComponent("cache").path)
        let locked: [LockedDependency]
        do {
            locked = try PackageDependencies.lock(
                name: "lib", path: "lib.luapkg", root: folder.path, requested: "lib.luapkg", cache: cache)
        } catch {
            return "\(error)".isEmpty ? ["a library refused without words"] : []
        }
        return vendorTargets(of: locked, root: folder.path)
    }
}
