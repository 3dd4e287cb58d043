import Foundation
import FlowDependencies
import Testing

@Suite struct LockfileTests {
    @Test func lockBytesAreSortedAndStable() throws {
        let b = LockedDependency(
            kind: "rock", name: "b", version: "1.0-1", origin: "/srv/b-1.0-1.all.rock", sha256: "22", requested: nil,
            dependencies: [], modules: [LockedModule(name: "b.z", path: "b/z.lua", size: 1, sha256: "z")])
        let a = LockedDependency(
            kind: "rock", name: "a", version: "2.0-1", origin: "/srv/a-2.0-1.all.rock", sha256: "11",
            requested: ">= 2", dependencies: ["b >= 1"],
            modules: [
                LockedModule(name: "a.y", path: "a/y.lua", size: 2, sha256: "y"),
                LockedModule(name: "a", path: "a/init.lua", size: 3, sha256: "x"),
            ])
        let one = try Lockfile(dependencies: [b, a]).jsonBytes()
        let two = try Lockfile(dependencies: [a, b]).jsonBytes()
        #expect(one == two)
        let text = String(decoding: one, as: UTF8.self)
        #expect(text.range(of: "\"name\" : \"a\"")!.lowerBound < text.range(of: "\"name\" : \"b\"")!.lowerBound)
        #expect(text.hasSuffix("}\n"))
    }

    @Test func stalenessNamesWhatChanged() {
        let locked = Lockfile(dependencies: [
            LockedDependency(
                kind: "rock", name: "inspect", version: "3.1.1-1", origin: "x", sha256: "s", requested: "~> 3.1",
                dependencies: [], modules: [])
        ])
        #expect(
            locked.staleness(
                for: [.init(name: "inspect", source: .rock(constraint: "~> 3.1"))], isExternal: { _ in false }) == nil)
        let changed = locked.staleness(
            for: [.init(name: "inspect", source: .rock(constraint: ">= 4"))], isExternal: { _ in false })
        #expect(changed?.contains("'>= 4'") == true)
        let added = locked.staleness(
            for: [
                .init(name: "inspect", source: .rock(constraint: "~> 3.1")), .init(name: "ui", source: .path("../ui")),
            ],
            isExternal: { _ in false })
        #expect(added?.contains("'ui'") == true)
        #expect(locked.staleness(for: [], isExternal: { _ in false })?.contains("no longer") == true)
    }

    @Test func constraintsAreCheckedAsLuaRocksWritesThem() {
        for good in ["~> 3.1", ">= 1.13", ">= 1.0, < 2.0", "3.1.1-1", "== 2.5", ""] where !good.isEmpty {
            #expect(DependencyDeclaration.constraintProblem(good) == nil, "\(good)")
        }
        for bad in ["latest", ">= x", "=> 1.0"] {
            #expect(DependencyDeclaration.constraintProblem(bad) != nil, "\(bad)")
        }
    }
}
