import Foundation
import Testing
import FlowPackage
@testable import FlowAnalysis
@testable import FlowDiagnostics

/// A test's minimal reading of a project folder for the analysis rules: modules under
/// `Sources/`, resources under `Resources/`, the environment from `flowpkg.json`.
/// (The real project model is the validator's; this keeps the analysis tests independent of it.)
struct AnalysisProject {
    var modules: [ProjectRules.Module] = []
    var moduleNames: Set<ModuleName> = []
    var resources: [ResourceKey: String] = [:]
    var environment = Environment.lua
    var unparsed: [String] = []
    var startModule: ModuleName?

    /// `Tests/` of this package, found from this file's path.
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ relativePath: String) throws -> AnalysisProject {
        try AnalysisProject(folder: testsDirectory.appendingPathComponent("Fixtures/\(relativePath)"))
    }

    init(folder: URL) throws {
        let sources = folder.appendingPathComponent("Sources")
        for relative in Self.files(under: sources) where relative.hasSuffix(".lua") {
            var name = String(relative.dropLast(4)).replacingOccurrences(of: "/", with: ".")
            if name.hasSuffix(".init") { name = String(name.dropLast(5)) }
            let moduleName = try ModuleName(name)
            moduleNames.insert(moduleName)
            let bytes = try [UInt8](Data(contentsOf: sources.appendingPathComponent(relative)))
            guard let facts = ModuleAnalyzer.analyze(bytes) else {
                unparsed.append(relative)
                continue
            }
            modules.append(ProjectRules.Module(name: moduleName, file: "Sources/\(relative)", facts: facts))
        }
        let resourceFolder = folder.appendingPathComponent("Resources")
        for relative in Self.files(under: resourceFolder) {
            resources[try ResourceKey(relativePath: relative)] = "Resources/\(relative)"
        }
        let projectFile = folder.appendingPathComponent("flowpkg.json")
        if let data = try? Data(contentsOf: projectFile),
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        {
            if let name = object["environment"] as? String { environment = try #require(Environment.named(name)) }
            if let start = object["startModule"] as? String { startModule = try ModuleName(start) }
            environment = environment.extended(
                globals: object["globals"] as? [String] ?? [],
                externalModules: object["externalModules"] as? [String] ?? [])
        }
    }

    func check() -> [Diagnostic] {
        ProjectRules.check(
            modules: modules, moduleNames: moduleNames, resources: resources, environment: environment,
            startModule: startModule)
    }

    static func files(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue && !path.split(separator: "/").contains { $0.hasPrefix(".") }
        }.sorted()
    }
}
