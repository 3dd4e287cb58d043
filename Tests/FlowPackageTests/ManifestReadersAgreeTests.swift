import Foundation
import Testing

@testable import FlowPackage

/// Thousands of generated manifests in the writer's layout, each read twice: as written (the
/// layout reader, and `ManifestTable` when every row is ASCII) and laid out otherwise (the JSON
/// parser and the `String` checks). Both readings must accept and refuse the same manifests,
/// word the same problems and give the same `Manifest`, and a table must find every module
/// where the list has it. The generator leans on the edges: non-ASCII and canonically equal
/// names, empty and dotted parts, 1,024-byte paths, sizes and entry counts at their limits,
/// twins (`a.lua` and `a/init.lua`), duplicates, two resource keys with one path, format 1, and
/// scripts (dotted names, paths outside `scripts/`, duplicates, sizes at the module limit).
@Suite struct ManifestReadersAgreeTests {
    /// SplitMix64: the same manifests on every run.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private struct Maker {
        var random = Generator(state: 12)
        /// Scripts come from a sequence of their own, so the other lists are what they were
        /// before scripts existed.
        var scriptRandom = Generator(state: 24)

        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
        mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }
        mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

        static let moduleParts = [
            "a", "b", "init", "x", "é", "K", "\u{212A}", "", " ", ":", "-", "e\u{301}", "lua",
            String(repeating: "a", count: 1007), String(repeating: "a", count: 1008),
            String(repeating: "a", count: 1012), String(repeating: "a", count: 1013),
        ]
        static let resourceParts = [
            "a", ".", "..", "...", ".a", "", "é", "x.y", "b", "a.", "/",
            String(repeating: "r", count: 1010), String(repeating: "r", count: 1014),
        ]
        static let scriptPaths = [
            "scripts/muc/password.lib.lua", "scripts/atl01.wmf/scripting/init.lua", "scripts/é.lua",
            "scripts/http-robots.txt.lua", "scripts/a.lib.lua", "scripts/a.lib.lua", "scripts/.lua",
            "scripts/a.txt", "modules/a.lib.lua", "scripts/../a.lua", "scripts//a.lua", "/scripts/a.lua",
            "scripts/" + String(repeating: "s", count: 1020) + ".lua",
        ]
        static let types = ["", "png", "a.b", "p/q", "é", "b", ".", "y"]
        static let hashes = [
            String(repeating: "a", count: 64), String(repeating: "0", count: 64), String(repeating: "A", count: 64),
            String(repeating: "a", count: 63), String(repeating: "g", count: 64),
        ]

        mutating func moduleName() -> String {
            var parts: [String] = []
            for _ in 0..<count(1...3) {
                parts.append(chance(0.7) ? pick(["a", "b", "x", "init"]) : pick(Self.moduleParts))
            }
            var name = parts.joined(separator: ".")
            if chance(0.05) { name = "." + name }
            if chance(0.05) { name += "." }
            return name
        }

        mutating func modulePath(_ name: String) -> String {
            let base = "modules/" + name.replacingOccurrences(of: ".", with: "/")
            if chance(0.85) { return base + (chance(0.6) ? ".lua" : "/init.lua") }
            return pick([
                base + ".luax", base + "/init.lu", "modules/./" + name + ".lua", "modules/a/../" + name + ".lua",
                "modules/" + name, base.uppercased() + ".lua", "modules//" + name + ".lua", "modules/a.lua",
            ])
        }

        mutating func resourceName() -> String {
            var parts: [String] = []
            for _ in 0..<count(1...3) {
                parts.append(chance(0.6) ? pick(["a", "b", "img"]) : pick(Self.resourceParts))
            }
            return parts.joined(separator: "/")
        }

        mutating func manifest() -> Manifest {
            var modules: [Manifest.Module] = []
            for _ in 0..<count(0...4) {
                let name = chance(0.3) && !modules.isEmpty ? pick(modules).name.rawValue : moduleName()
                modules.append(
                    Manifest.Module(
                        name: ModuleName(checked: name), path: modulePath(name),
                        size: Int64(pick([0, 1, 99, 100, 101, 250])),
                        sha256: chance(0.9) ? Self.hashes[0] : pick(Self.hashes)))
            }
            if chance(0.1), let module = modules.first {
                var twin = module
                twin.path =
                    module.path.hasSuffix("/init.lua")
                    ? String(module.path.dropLast(9)) + ".lua" : String(module.path.dropLast(4)) + "/init.lua"
                modules.append(twin)
            }
            if chance(0.05), let module = modules.last { modules.append(module) }
            var resources: [Manifest.Resource] = []
            for _ in 0..<count(0...3) {
                var name = resourceName()
                var type = pick(Self.types)
                if chance(0.1), let other = resources.last {  // the same path under another key
                    name = other.key.type.isEmpty ? other.key.name : other.key.name + "." + other.key.type
                    type = ""
                }
                if chance(0.05) { name = "/" + name }
                var path = "resources/" + name + (type.isEmpty ? "" : "." + type)
                if chance(0.12) {
                    path = pick([path + "x", "resources/" + name, "modules/" + name, "resources//" + name])
                }
                resources.append(
                    Manifest.Resource(
                        key: ResourceKey(checkedName: name, type: type), path: path,
                        size: Int64(pick([0, 49, 50, 51])),
                        sha256: chance(0.9) ? Self.hashes[1] : pick(Self.hashes)))
            }
            if chance(0.85) {
                modules.sort { PackagePath.precedes($0.path, $1.path) }
                resources.sort { PackagePath.precedes($0.path, $1.path) }
            }
            var start: String?
            if chance(0.6), let module = modules.last {
                start = module.name.rawValue
            } else if chance(0.3) {
                start = pick(["missing", "\u{212A}", "K", "a", "a.b", "x"])
            }
            var manifest = Manifest(
                formatVersion: chance(0.9) ? 2 : pick([1, 3]), identifier: try! PackageIdentifier("com.example.words"),
                name: chance(0.9) ? "Words" : "Wörter", version: "1.0.0",
                startModule: start.map { ModuleName(checked: $0) },
                generator: "g", modules: modules, resources: resources, digest: "")
            if Double.random(in: 0..<1, using: &scriptRandom) < 0.4 {
                for _ in 0..<Int.random(in: 1...3, using: &scriptRandom) {
                    let path = Self.scriptPaths.randomElement(using: &scriptRandom)!
                    manifest.scripts.append(
                        Manifest.Script(
                            path: path, size: [0, 99, 100, 101].randomElement(using: &scriptRandom)!,
                            sha256: Self.hashes.randomElement(using: &scriptRandom)!))
                }
                if Double.random(in: 0..<1, using: &scriptRandom) < 0.8 {
                    manifest.scripts.sort { PackagePath.precedes($0.path, $1.path) }
                }
            }
            manifest.digest = chance(0.03) ? String(repeating: "f", count: 64) : manifest.computedDigest
            return manifest
        }
    }

    @Test func bothReadersAgreeOnGeneratedManifests() throws {
        var maker = Maker()
        var tables = 0
        var accepted = 0
        for number in 0..<2000 {
            let manifest = maker.manifest()
            let limits = PackageLimits(
                maxEntries: maker.count(2...8), maxModuleBytes: 100, maxTotalModuleBytes: 250, maxResourceBytes: 50)
            let bytes = manifest.jsonBytes()
            let relaidOut = Array("{ ".utf8) + bytes.dropFirst(1)
            let fast = Result { () throws(PackageError) in
                try Manifest.decodeChecked(bytes, packagePath: "p", limits: limits)
            }
            let parsed = Result { () throws(PackageError) in
                try Manifest.decode(relaidOut, packagePath: "p", limits: limits)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            switch (fast, parsed) {
            case (.success(let decoded), .success(let expected)):
                accepted += 1
                #expect(decoded.manifest == expected, "manifest \(number):\n\(text)")
                if let table = decoded.table {
                    tables += 1
                    for (position, module) in expected.modules.enumerated() {
                        #expect(table.position(ofPath: module.path, resources: false) == position, "\(text)")
                    }
                }
            case (.failure(let lhs), .failure(let rhs)):
                #expect(lhs.problems == rhs.problems, "manifest \(number):\n\(text)")
            default:
                Issue.record("manifest \(number): the readers disagree: \(fast) against \(parsed)\n\(text)")
            }
        }
        // The generator must reach both outcomes, and the table, often enough to mean something.
        #expect(accepted > 60, "\(accepted) accepted")
        #expect(tables > 40, "\(tables) tables")
    }
}
