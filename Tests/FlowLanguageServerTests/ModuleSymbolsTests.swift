import Testing

@testable import FlowLanguageServer

/// ModuleSymbols follows Lua's scoping rules: which declaration each name means.
@Suite struct ModuleSymbolsTests {
    /// What the `index`th occurrence of `name` on `line` (1-based) means: "local L:C" for the
    /// declaration it names, "global" for none.
    private func meaning(_ source: String, line: Int, _ name: String, _ index: Int = 0) throws -> String {
        let symbols = try #require(ModuleSymbols(source: Array(source.utf8)))
        let found = symbols.occurrences.filter { $0.line == line && $0.length == name.utf8.count }
            .filter { occurrence in
                let lineText = source.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
                let bytes = Array(lineText.utf8)
                return String(
                    decoding: bytes[(occurrence.column - 1)..<(occurrence.column - 1 + occurrence.length)],
                    as: UTF8.self)
                    == name
            }
            .sorted { $0.column < $1.column }
        let occurrence = try #require(index < found.count ? found[index] : nil, "\(name) on line \(line)")
        switch occurrence.target {
        case .local(let binding):
            return "local \(symbols.bindings[binding].line):\(symbols.bindings[binding].column)"
        case .global: return "global"
        default: return "field"
        }
    }

    @Test func aLocalIsInScopeAfterItsStatementAndShadowingMakesANewOne() throws {
        let source = "local x = 1\nlocal x = x + 1\nprint(x)\n"
        #expect(try meaning(source, line: 2, "x", 1) == "local 1:7")  // `x + 1` reads the first x
        #expect(try meaning(source, line: 2, "x", 0) == "local 2:7")
        #expect(try meaning(source, line: 3, "x") == "local 2:7")
    }

    @Test func loopsFunctionsAndRepeatScopes() throws {
        let source = """
            for i = 1, 3 do print(i) end
            print(i)
            repeat local done = true until done
            local function f() return f() end
            local g = function() return g end
            do local h = 1 end
            print(h)
            """
        #expect(try meaning(source, line: 1, "i", 1) == "local 1:5")
        #expect(try meaning(source, line: 2, "i") == "global")
        #expect(try meaning(source, line: 3, "done", 1) == "local 3:14")  // until sees the block's locals
        #expect(try meaning(source, line: 4, "f", 1) == "local 4:16")  // local function: itself, recursively
        #expect(try meaning(source, line: 5, "g", 1) == "global")  // local g = function: not yet g
        #expect(try meaning(source, line: 7, "h") == "global")
    }

    @Test func fieldsOfTheReturnedTableAndOfRequiredModules() throws {
        let source = """
            local M = { a = 1 }
            local R = require "Other"
            function M.b() return R.c, require("Other").d end
            return M
            """
        let symbols = try #require(ModuleSymbols(source: Array(source.utf8)))
        let targets = symbols.occurrences.map(\.target)
        let m = try #require(symbols.exportBinding)
        #expect(symbols.bindings[m].name == "M")
        #expect(targets.contains(.field(owner: m, name: "a")))
        #expect(targets.contains(.field(owner: m, name: "b")))
        let r = try #require(symbols.bindings.firstIndex { $0.name == "R" })
        #expect(symbols.bindings[r].requiredModule == "Other")
        #expect(targets.contains(.field(owner: r, name: "c")))
        #expect(targets.contains(.requiredField(module: "Other", name: "d")))
        // A local named require is not Lua's: its "module" is no module.
        let shadowed = try #require(ModuleSymbols(source: Array("local require = f\nlocal X = require 'x'\n".utf8)))
        #expect(shadowed.bindings.allSatisfy { $0.requiredModule == nil })
    }
}
