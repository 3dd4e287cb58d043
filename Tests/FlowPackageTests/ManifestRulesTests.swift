import Testing

@testable import FlowPackage

/// The rules both manifest readers share, written once in `ManifestRules`.
@Suite struct ManifestRulesTests {
    @Test func aSHA256IsSixtyFourLowercaseHexDigits() {
        #expect(ManifestRules.isSHA256(String(repeating: "0a", count: 32)))
        #expect(!ManifestRules.isSHA256(String(repeating: "0A", count: 32)))
        #expect(!ManifestRules.isSHA256(String(repeating: "0", count: 63)))
        #expect(!ManifestRules.isSHA256(String(repeating: "g", count: 64)))
    }

    @Test func aModuleStoredBothWaysIsFoundInSortedPaths() {
        let paths = ["modules/a.lua", "modules/a/b.lua", "modules/a/init.lua", "modules/c/init.lua"]
        // `a` is at modules/a.lua and modules/a/init.lua; `c` only as init.lua.
        #expect(!ManifestRules.noModuleTwice(sortedPaths: paths.map { Array($0.utf8) }, initModules: [2, 3]))
        #expect(ManifestRules.noModuleTwice(sortedPaths: paths.map { Array($0.utf8) }, initModules: [3]))
        let alone = ["modules/a/init.lua", "modules/b.lua"]
        #expect(ManifestRules.noModuleTwice(sortedPaths: alone.map { Array($0.utf8) }, initModules: [0]))
        #expect(ManifestRules.noModuleTwice(sortedPaths: [[UInt8]](), initModules: []))
    }
}
