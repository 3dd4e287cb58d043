import FlowLoader
import FlowPackage
import FlowTestSupport
import FlowTesting
import Foundation

/// A project folder of spec files on disk, run with luassert and say from Debian's
/// lua-luassert and lua-say (the same files busted uses here) served as the project's modules.
struct SpecProject {
    let root: URL

    init(files: [String: String]) throws {
        root = try Scratch("testing").url
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
    }

    /// A copy of the folder `source`, so a run writes nothing in the source tree.
    init(copying source: URL) throws {
        root = try Scratch("testing").url
        try FileManager.default.copyItem(at: source, to: root)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }

    /// luassert's and say's modules, by module name, from where Debian installs them.
    static let assertionModules: [String: String] = {
        var modules: [String: String] = [:]
        let base = "/usr/share/lua/5.1"
        for folder in ["luassert", "say"] {
            guard let walker = FileManager.default.enumerator(atPath: base + "/" + folder) else { continue }
            while let relative = walker.nextObject() as? String {
                guard relative.hasSuffix(".lua"),
                    let text = try? String(contentsOfFile: base + "/" + folder + "/" + relative, encoding: .utf8)
                else { continue }
                var name = folder + "." + relative.dropLast(4).replacingOccurrences(of: "/", with: ".")
                if name.hasSuffix(".init") { name = String(name.dropLast(5)) }
                modules[name] = text
            }
        }
        return modules
    }()

    /// The suite of every spec file under `spec/`, with the project's own `modules` and, unless
    /// told otherwise, luassert and say.
    func suite(modules: [String: String] = [:], withAssertions: Bool = true) throws -> TestSuite {
        let files = try SpecDiscovery.find(root: root.path, roots: ["spec"], patterns: ["_spec"])
        let all = modules.merging(withAssertions ? Self.assertionModules : [:]) { own, _ in own }
        let source = try MemorySource(kind: .projectFolder, location: root.path, modules: all)
        return TestSuite(root: root.path, files: files, identifier: source.identifier, sources: [source])
    }
}
