import FlowLoader
import FlowLua
import FlowPackage
import Foundation
import Testing
@testable import FlowRuntime

@Suite struct BridgingTests {
    @Test(
        arguments: [
            LuaValue.nil, true, false, 0, -7, 9_007_199_254_740_993, 2.5, -0.125, "", "héllo\u{0}wörld",
            [1, "two", 3.5, false], ["a": 1, "b": ["nested": [1, 2]], "c": "x"], [],
        ] as [LuaValue])
    func globalsRoundTrip(_ value: LuaValue) throws {
        let (context, _) = try makeContext()
        try context.setGlobal("v", value)
        #expect(try context.global("v") == value)
    }

    /// Converting a deeply nested or self-referencing table keeps within the Lua stack's room
    /// (it used to write past it and corrupt the heap), and stops at 32 levels.
    @Test func deepAndCyclicTablesConvertWithoutOverflowingTheStack() throws {
        let (context, _) = try makeContext()
        let values = try context.execute(
            """
            local deep = {}
            local t = deep
            for i = 1, 100 do t.next = {i, i + 1}; t = t.next end
            local cycle = {name = "c"}
            cycle.self = cycle
            return deep, cycle
            """)
        var level = values[0], depth = 0
        while case .table(let entries) = level, let next = entries["next"] {
            level = next
            depth += 1
        }
        #expect(depth == 32)
        #expect(level == .opaque("table"))
        guard case .table(let cycle) = values[1] else { Issue.record("not a table: \(values[1])"); return }
        #expect(cycle["name"] == "c")
        // Pushing a deep value back into Lua works too.
        try context.setGlobal("v", values[0])
        #expect(try context.execute("return type(v.next.next.next)") == ["table"])
    }

    @Test func luaSeesSwiftValuesAsLuaTypes() throws {
        let (context, _) = try makeContext()
        try context.setGlobal("list", [10, 20, 30])
        try context.setGlobal("map", ["k": "v"])
        try context.setGlobal("n", 3)
        #expect(
            try context.execute("return #list, list[2], map.k, math.type(n), type(map)") == [
                3, 20, "v", "integer", "table",
            ])
    }

    @Test func luaFunctionsAreCallableFromSwift() throws {
        let (context, _) = try makeContext()
        try context.execute("function add(a, b) return a + b, 'sum' end")
        let add = try #require(try context.global("add").functionValue)
        #expect(try add.call(2, 3) == [5, "sum"])
        do {
            try add.call("x", [])
            Issue.record("no error")
        } catch let error as LuaError {
            #expect(error.message == "execute:1: attempt to add a 'string' with a 'table'")
        }
        // Handed back to Lua, it is the same function.
        try context.setGlobal("again", .function(add))
        #expect(try context.execute("return again == add") == [true])
    }

    @Test func swiftClosuresAreCallableFromLua() throws {
        let (context, _) = try makeContext()
        try context.setGlobal(
            "greet",
            .function(
                LuaFunction { arguments in
                    [.string("hello " + (arguments.first?.stringValue ?? "?")), .integer(Int64(arguments.count))]
                }))
        #expect(try context.execute("return greet('lua', 2)") == ["hello lua", 2])
        // Inside a coroutine too.
        #expect(try context.execute("return coroutine.wrap(function() return greet('co') end)()") == ["hello co", 1])
    }

    @Test func swiftErrorsBecomeLuaErrorsAtTheCaller() throws {
        struct Refusal: Error, CustomStringConvertible { var description: String { "refused by Swift" } }
        let (context, _) = try makeContext()
        try context.setGlobal("refuse", .function(LuaFunction { _ in throw Refusal() }))
        // Called by pcall (a C function) there is no Lua line to name, as with Lua's own errors.
        #expect(try context.execute("return pcall(refuse)", chunkName: "main.lua") == [false, "refused by Swift"])
        do {
            try context.execute("\nrefuse()", chunkName: "main.lua")
            Issue.record("no error")
        } catch let error as LuaError {
            #expect(error.message == "main.lua:2: refused by Swift")
        }
    }

    @Test func aSwiftClosureMayCallItsContextBack() throws {
        let (context, _) = try makeContext()
        let box = ContextBox()
        box.context = context
        try context.setGlobal(
            "double",
            .function(
                LuaFunction { arguments in
                    // Runs on the context's thread: this must run inline, not wait for itself.
                    let factor = try box.context!.global("factor")
                    return [.integer((arguments.first?.doubleValue).map { Int64($0) }! * Int64(factor.doubleValue!))]
                }))
        try context.setGlobal("factor", 2)
        #expect(try context.execute("return double(21)") == [42])
    }

    @Test func metamethodErrorsOnGlobalsAreReportedNotFatal() throws {
        let (context, _) = try makeContext()
        try context.execute(
            "setmetatable(_G, { __newindex = function(_, k) error('no new global ' .. k, 2) end, __index = function(_, k) error('undefined ' .. k, 2) end })"
        )
        #expect(throws: LuaError.self) { try context.setGlobal("fresh", 1) }
        #expect(throws: LuaError.self) { try context.global("missing") }
    }
}

final class ContextBox: @unchecked Sendable {
    weak var context: LuaContext?
}
