import FlowPackage
import Testing
@testable import FlowAnalysis
@testable import FlowDiagnostics
@testable import LuaSyntax

/// FP401–FP408: each fixture under `Tests/Fixtures/invalid/FP40x` gives its code at its place.
@Suite struct AnalysisRulesTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var code: String
        var severity: Diagnostic.Severity
        var file: String
        var line: Int?
        var column: Int?
        var message: String
        var hint: String?
        var testDescription: String { code }
    }

    static let expectations: [Expected] = [
        Expected(
            code: "FP401", severity: .error, file: "Sources/Main.lua", line: 3, column: 14,
            message: "module 'jsno' not found (a top-level require: it fails when 'Main' loads)",
            hint:
                "looked in the project's modules, Lua's standard library and the 'lua' environment; if the host provides it, add it to \"externalModules\" in flowpkg.json"
        ),
        Expected(
            code: "FP402", severity: .warning, file: "Sources/Main.lua", line: 5, column: 16,
            message: "module 'lpeg' not found (a require inside a function)"),
        Expected(
            code: "FP403", severity: .error, file: "Sources/A.lua", line: 2, column: 11,
            message: "require cycle: A -> B -> C -> A"),
        Expected(
            code: "FP404", severity: .error, file: "Sources/Main.lua", line: 3, column: 16,
            message: "getResource(\"img/logo\", \"jpg\") names no resource of the project",
            hint: "resources named 'img/logo': img/logo.png"),
        Expected(
            code: "FP405", severity: .warning, file: "Sources/Main.lua", line: 3, column: 1,
            message: "'pirnt' is not defined: no module, the 'lua' environment nor the project's globals define it",
            hint: "did you mean 'print'?"),
        Expected(
            code: "FP406", severity: .warning, file: "Resources/notes.txt", line: nil, column: nil,
            message: "resource 'notes.txt' is not named by any module"),
        Expected(
            code: "FP407", severity: .warning, file: "Sources/A.lua", line: 1, column: 11,
            message:
                "require cycle: A -> B -> A (no module of it loads at start: the first require of one recurses until Lua stops with 'stack overflow')",
            hint:
                "a module cannot require, at its top level, a module that requires it back; move one require into the function that needs it"
        ),
        Expected(
            code: "FP408", severity: .warning, file: "Sources/Main.lua", line: 4, column: 32,
            message:
                "getResource(\"img/banner\", \"png\") names no resource of the project (reached only when it runs, inside a function: that call raises an error then)",
            hint: "add the file to a resources folder, or fix the name"),
    ]

    @Test(arguments: expectations)
    func fixtureReportsItsCodeAtItsPlace(_ expected: Expected) throws {
        let project = try AnalysisProject.fixture("invalid/\(expected.code)")
        #expect(project.unparsed.isEmpty)
        let diagnostics = project.check()
        let found = diagnostics.filter { $0.code.code == expected.code }
        let first = try #require(found.first, "no \(expected.code) in \(diagnostics)")
        #expect(first.severity == expected.severity)
        #expect(first.file == expected.file)
        #expect(first.line == expected.line)
        #expect(first.column == expected.column)
        #expect(first.message == expected.message)
        if let hint = expected.hint { #expect(first.hint == hint) }
        // The fixture shows its rule and nothing that is an error of another rule.
        #expect(diagnostics.allSatisfy { $0.code.code == expected.code || $0.severity != .error })
    }

    @Test func protectedRequiresAreWarnings() throws {
        let diagnostics = try AnalysisProject.fixture("invalid/FP402").check()
        #expect(diagnostics.map { "\($0.code) \($0.line!):\($0.column!)" } == ["FP402 5:16", "FP402 9:33"])
        #expect(diagnostics[1].message == "module 'socket' not found (a protected require)")
    }

    @Test func aCycleIsReportedOnce() throws {
        let diagnostics = try AnalysisProject.fixture("invalid/FP403").check()
        #expect(diagnostics.filter { $0.code.code == "FP403" }.count == 1)
    }

    @Test func cyclesOfTwoAndSelfRequires() throws {
        let facts = { (requires: [String]) -> ModuleFacts in
            var facts = ModuleFacts()
            facts.requires = requires.enumerated().map {
                .init(module: $1, location: SourceLocation(line: $0 + 1, column: 1), isInsideFunction: false)
            }
            return facts
        }
        let modules = try [
            ProjectRules.Module(name: ModuleName("X"), file: "X.lua", facts: facts(["Y"])),
            ProjectRules.Module(name: ModuleName("Y"), file: "Y.lua", facts: facts(["Z", "X"])),
            ProjectRules.Module(name: ModuleName("Z"), file: "Z.lua", facts: facts(["Z"])),
        ]
        let diagnostics = ProjectRules.check(
            modules: modules, moduleNames: Set(modules.map(\.name)),
            resources: Set<ResourceKey>(), environment: .lua)
        #expect(diagnostics.map(\.message) == ["require cycle: X -> Y -> X", "require cycle: Z -> Z"])
        #expect(diagnostics.map(\.file) == ["X.lua", "Z.lua"])
    }

    /// A long chain leading into two cycles that share a module, and a require of a module that
    /// did not parse: each cycle once, nothing for the chain.
    @Test func onlyModulesOnCyclesReportThem() throws {
        let facts = { (requires: [String]) -> ModuleFacts in
            var facts = ModuleFacts()
            facts.requires = requires.enumerated().map {
                .init(module: $1, location: SourceLocation(line: $0 + 1, column: 1), isInsideFunction: false)
            }
            return facts
        }
        var graph: [String: [String]] = ["C1": ["C2"], "C2": ["C3", "D"], "C3": ["C1"], "D": ["C2", "Broken"]]
        for index in 0..<50 { graph["M\(index)"] = [index == 49 ? "C3" : "M\(index + 1)", "Broken"] }
        let modules = try graph.keys.sorted().map {
            ProjectRules.Module(name: try ModuleName($0), file: "\($0).lua", facts: facts(graph[$0]!))
        }
        let names = try Set(modules.map(\.name) + [ModuleName("Broken")])
        let diagnostics = ProjectRules.check(
            modules: modules, moduleNames: names, resources: Set<ResourceKey>(), environment: .lua)
        #expect(diagnostics.map(\.message) == ["require cycle: C1 -> C2 -> C3 -> C1", "require cycle: C2 -> D -> C2"])
    }

    @Test func aRequireInsideAFunctionMakesNoCycle() throws {
        var a = ModuleFacts()
        a.requires = [.init(module: "B", location: SourceLocation(line: 1, column: 1), isInsideFunction: false)]
        var b = ModuleFacts()
        b.requires = [.init(module: "A", location: SourceLocation(line: 1, column: 1), isInsideFunction: true)]
        let modules = try [
            ProjectRules.Module(name: ModuleName("A"), file: "A.lua", facts: a),
            ProjectRules.Module(name: ModuleName("B"), file: "B.lua", facts: b),
        ]
        #expect(
            ProjectRules.check(
                modules: modules, moduleNames: Set(modules.map(\.name)),
                resources: Set<ResourceKey>(), environment: .lua
            ).isEmpty)
    }

    @Test func undefinedGlobalsOncePerNamePerModule() throws {
        let source = "pirnt(1)\npirnt(2)\nlocal v = unknownThing\nhelper()\n"
        let facts = try #require(ModuleAnalyzer.analyze(Array(source.utf8)))
        var other = ModuleFacts()
        other.globalWrites = ["helper"]
        other.explicitGlobalWrites = ["helper"]  // `_G.helper = ...`: a plain `helper = ...` declares nothing
        let modules = try [
            ProjectRules.Module(name: ModuleName("Main"), file: "Main.lua", facts: facts),
            ProjectRules.Module(name: ModuleName("Other"), file: "Other.lua", facts: other),
        ]
        let diagnostics = ProjectRules.check(
            modules: modules, moduleNames: Set(modules.map(\.name)),
            resources: Set<ResourceKey>(), environment: .lua)
        #expect(diagnostics.map { "\($0.code) \($0.line!)" } == ["FP405 1", "FP405 3"])
        #expect(diagnostics[1].hint == "if the host defines it, add it to \"globals\" in flowpkg.json")
        let extended = Environment.lua.extended(globals: ["pirnt", "unknownThing"], externalModules: [])
        #expect(
            ProjectRules.check(
                modules: modules, moduleNames: Set(modules.map(\.name)),
                resources: Set<ResourceKey>(), environment: extended
            ).isEmpty)
    }

    @Test func resourcesNamedWithOrWithoutType() throws {
        var facts = ModuleFacts()
        facts.stringLiterals = ["img/logo", "notes.txt"]
        let resources: Set<ResourceKey> = try [
            ResourceKey(name: "img/logo", type: "png"),
            ResourceKey(name: "notes", type: "txt"),
            ResourceKey(name: "other", type: "txt"),
        ]
        let modules = try [ProjectRules.Module(name: ModuleName("Main"), file: "Main.lua", facts: facts)]
        let diagnostics = ProjectRules.check(
            modules: modules, moduleNames: Set(modules.map(\.name)),
            resources: resources, environment: .lua)
        #expect(diagnostics.map { "\($0.code) \($0.file!)" } == ["FP406 other.txt"])
    }

    @Test func cleanCodeFlowProject() throws {
        let project = try AnalysisProject.fixture("analysis/codeflow")
        #expect(project.environment.name == "codeflow-ios")
        #expect(project.check() == [])
    }

    @Test func environments() throws {
        #expect(Environment.knownNames.allSatisfy { Environment.named($0) != nil })
        #expect(Environment.named("nope") == nil)
        let lua = Environment.lua
        #expect(lua.provides(module: "string") && !lua.provides(module: "UIKit.UIView"))
        #expect(lua.globals.isSuperset(of: ["print", "getResource", "utf8", "warn"]) && !lua.globals.contains("objc"))
        let ios = try #require(Environment.named("codeflow-ios"))
        #expect(ios.provides(module: "UIKit.UIView") && ios.provides(module: "CoreGraphics"))
        #expect(!ios.provides(module: "UIKitExtras") && !ios.provides(module: "MyApp.UIKit"))
        #expect(ios.globals.isSuperset(of: ["objc", "class", "property", "struct", "enum", "print"]))
        let extended = lua.extended(globals: ["host"], externalModules: ["lpeg", "socket.*"])
        #expect(extended.globals.contains("host"))
        #expect(extended.provides(module: "lpeg") && !extended.provides(module: "lpeg.re"))
        #expect(extended.provides(module: "socket") && extended.provides(module: "socket.http"))
    }

    @Test func suggestions() {
        #expect(Suggestions.closest(to: "pirnt", in: ["print", "pairs", "pcall"]) == "print")
        #expect(Suggestions.closest(to: "tabel", in: ["table", "type"]) == "table")
        #expect(Suggestions.closest(to: "zzz", in: ["print"]) == nil)
    }
}
