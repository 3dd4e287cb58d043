import FlowLua
import FlowPackage
import Testing
@testable import FlowRuntime

@Suite struct SandboxTests {
    @Test func defaultSandboxRemovesWhatCanReachOutside() throws {
        let (context, _) = try makeContext(modules: ["m": "return 'module ok'"], options: .init(sandbox: .default))
        let removed = try context.execute(
            """
            return io, debug, dofile, loadfile, package.loadlib, os.execute, os.getenv, os.remove,
              package.loaded.io, package.loaded.debug, package.loaded.os.execute, package.searchpath
            """)
        #expect(removed == Array(repeating: .nil, count: 12))
        #expect(
            try context.execute("return type(os.time()), type(os.clock()), type(os.date('%Y'))") == [
                "number", "number", "string",
            ])
        #expect(try context.execute("return require 'm'") == ["module ok", "m.lua"])
        #expect(
            try context.execute("return type(getResource), type(postMessage), type(string.format)") == [
                "function", "function", "function",
            ])
        #expect(throws: LuaError.self) { try context.execute("return require 'io'") }
        // Text still loads, with or without an environment; bytecode does not.
        #expect(try context.execute("return load('return 1 + 1')()") == [2])
        #expect(try context.execute("return load('return x', 'c', 't', { x = 5 })()") == [5])
        #expect(
            try context.execute(
                """
                local f, problem = load(string.dump(function() return 1 end), 'b', 'b')
                return f, problem
                """) == [.nil, "attempt to load a binary chunk (mode is 't')"])
    }

    @Test func theAllowListDecides() throws {
        let sandbox = LuaContext.Sandbox(allowedGlobals: ["print", "type"]).permitting("string.upper")
        let (context, _) = try makeContext(options: .init(sandbox: sandbox))
        #expect(
            try context.execute(
                "return type(print), type(string.upper), string.format, pairs, require, ('x').format, ('x'):upper()")
                == ["function", "function", .nil, .nil, .nil, .nil, "X"])
    }

    @Test func withoutASandboxTheStandardLibraryIsThere() throws {
        let (context, _) = try makeContext()
        #expect(try context.execute("return type(io), type(debug), type(os.getenv)") == ["table", "table", "function"])
    }
}
