import FlowLua
import Testing

/// Registry references and the registry tables a host keeps, on a real state; every operation
/// leaves the stack as it found it.
@Suite struct LuaStackRegistryTests {
    @Test func referenceHoldsItsValueAndIsReusedAfterRelease() throws {
        let lua = try LuaState()
        let stack = lua.stack
        stack.push(.string("kept"))
        let reference = stack.popReference()
        #expect(stack.top == 0)
        stack.push(referenced: reference)
        #expect(stack.value(at: -1) == .string("kept"))
        stack.pop()
        stack.release(reference)
        stack.push(.integer(7))
        #expect(stack.popReference() == reference)
        #expect(stack.top == 0)
    }

    @Test func topValueBecomesAKeyAndStays() throws {
        let lua = try LuaState()
        let stack = lua.stack
        stack.push(.table([:]))
        let table = stack.popReference()
        stack.push(.string("chunk"))
        stack.rawSetTopAsKey(inReferencedTable: table, to: "Foo.Bar")
        #expect(stack.top == 1)
        #expect(stack.value(at: -1) == .string("chunk"))
        stack.pop()
        stack.push(referenced: table)
        #expect(stack.value(at: -1) == .table(["chunk": .string("Foo.Bar")]))
    }

    @Test func fieldsAreTakenOutAndPutBack() throws {
        let lua = try LuaState()
        let stack = lua.stack
        stack.push(
            .table([
                "A": .table(["B": .bool(true), "C": .bool(true)]),
                "D": .table([:]),
                "number": .integer(1),
            ]))
        let table = stack.popReference()
        func sets() -> [String: [String]] {
            var result: [String: [String]] = [:]
            for (key, members) in stack.stringKeySets(inReferencedTable: table) {
                result[String(decoding: key, as: UTF8.self)] = members.map { String(decoding: $0, as: UTF8.self) }
                    .sorted()
            }
            return result
        }
        #expect(sets() == ["A": ["B", "C"], "D": []])
        let taken = stack.rawTake("A", fromReferencedTable: table)
        #expect(sets() == ["D": []])
        stack.rawSet("A", inReferencedTable: table, toReferenced: taken)
        stack.release(taken)
        #expect(sets() == ["A": ["B", "C"], "D": []])
        #expect(stack.top == 0)
    }

    @Test func loadedModulesAreThoseInPackageLoaded() throws {
        let lua = try LuaState()
        try lua.run("package.loaded['Foo.Bar'] = true", chunkName: "setup.lua")
        #expect(lua.stack.isModuleLoaded("Foo.Bar"))
        #expect(lua.stack.isModuleLoaded("string"))
        #expect(!lua.stack.isModuleLoaded("Missing"))
        #expect(lua.stack.top == 0)
    }
}
