import Testing

@testable import FlowProject

/// Validation reads each module with flowpkg's parser first and compiles it with Lua only when
/// the parser rejects it or cannot vouch for it: the messages stay Lua's own.
@Suite struct ParserFirstCheckTests {
    static func check(_ source: String) -> ModuleContentChecker.Outcome {
        let checker = ModuleContentChecker(maximumSize: 8 << 20)
        return checker.check(bytes: Array(source.utf8), path: "/p/Sources/m.lua", chunkName: "m.lua")
    }

    static func found(_ outcome: ModuleContentChecker.Outcome) -> [String] {
        outcome.diagnostics.map { "\($0.code)@\($0.line ?? 0): \($0.message)" }
    }

    @Test func whatOnlyLuaCatchesIsLuasError() {
        let goto = Self.check("local a = 1\ngoto nowhere\n")
        #expect(Self.found(goto) == ["FP301@3: no visible label 'nowhere' for <goto> at line 2"])
        #expect(goto.facts == nil)
        let constant = Self.check("local x <const> = 1\nx = 2\n")
        #expect(Self.found(constant) == ["FP301@2: attempt to assign to const variable 'x'"])
        let outside = Self.check("if x then\n  break\nend\n")
        #expect(Self.found(outside) == ["FP301@4: break outside loop at line 2"])
    }

    @Test func aLimitOfLuasCompilerIsStillFP303() {
        let locals = "local " + (1...201).map { "a\($0)" }.joined(separator: ", ") + "\n"
        let found = Self.found(Self.check(locals))
        #expect(found == ["FP303@2: too many local variables (limit is 200) in main function near <eof>"], "\(found)")
    }

    /// Near a limit the parser cannot vouch for the module; Lua compiles it, and the analysis
    /// still gets its facts.
    @Test func aModuleLuaAcceptsNearALimitIsAnalysed() {
        let locals = "local " + (1...190).map { "a\($0)" }.joined(separator: ", ") + "\nreturn a1\n"
        let outcome = Self.check(locals)
        #expect(outcome.diagnostics.isEmpty, "\(Self.found(outcome))")
        #expect(outcome.facts != nil)
        let plain = Self.check("local t = {}\nfunction t.f() return 1 end\nreturn t\n")
        #expect(plain.diagnostics.isEmpty)
        #expect(plain.facts != nil)
    }
}
