import FlowTestSupport
import Foundation
import Testing
@testable import FlowPackage

/// `allModules` reads a large package's modules on several libarchive handles at once; these
/// check that the split covers every module once and that the result is the same as reading
/// them one by one.
@Suite struct ModuleReadingTests {
    @Test func splitCoversEveryModuleOnceInOrder() throws {
        let modules = try (0..<50).map { index in
            Manifest.Module(
                name: try ModuleName("m\(index)"), path: "modules/m\(index).lua",
                size: Int64(index % 7 == 0 ? 400_000 : 30_000), sha256: String(repeating: "0", count: 64))
        }
        for parts in 1...5 {
            let groups = PackageReader.splitBySize(modules, into: parts)
            #expect(groups.count <= parts)
            #expect(!groups.contains { $0.isEmpty })
            #expect(groups.flatMap { $0 }.map(\.path) == modules.map(\.path))
        }
        let halves = PackageReader.splitBySize(modules, into: 2)
        #expect(halves.count == 2)
        let sizes = halves.map { $0.reduce(Int64(0)) { $0 + $1.size } }
        let total = sizes.reduce(0, +)
        // Each half holds at most half the bytes plus one module's.
        #expect(sizes.allSatisfy { $0 <= total / 2 + 400_000 })
        // Small packages are read on one handle: a second one would cost more than it saves.
        #expect(
            PackageReader.splitBySize(
                Array(modules.prefix(3)).map {
                    var m = $0; m.size = 10; return m
                }, into: 4
            ).count == 1)
        #expect(PackageReader.splitBySize([], into: 2).count == 1)
    }

    @Test func manyModulesReadOnSeveralHandlesMatchOneByOne() throws {
        let scratch = try Scratch()
        var modules: [PackageInput.Module] = []
        for index in 0..<60 {
            let body = "-- " + String(repeating: "module \(index) ", count: 2_000) + "\nreturn \(index)\n"
            let file = try scratch.file("project/Sources/m\(index).lua", body)
            modules.append(.init(name: try ModuleName("m\(index)"), relativePath: "m\(index).lua", file: file))
        }
        let input = PackageInput(
            identifier: try PackageIdentifier("com.example.many"), name: "Many", version: "1.0.0",
            startModule: try ModuleName("m0"), modules: modules, resources: [])
        let output = scratch.path("many.luapkg")
        try PackageWriter.write(input, to: output)
        let reader = try PackageReader(contentsOf: output)
        let all = try reader.allModules()
        #expect(all.count == 60)
        for module in reader.manifest.modules {
            #expect(all[module.name] == (try reader.moduleData(module.name)))
        }
        #expect(all[try ModuleName("m59")]?.suffix(10) == Array("\nreturn 59\n".utf8).suffix(10))
    }
}
