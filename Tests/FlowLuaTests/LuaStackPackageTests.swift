import FlowLua
import Testing

/// The set-up operations a host runs on a fresh state, on a real state; each leaves the stack
/// as it found it.
@Suite struct LuaStackPackageTests {
    /// The searcher the tests install: it finds no module, and says so.
    private static let searcher: LuaSwiftFunction = { L in
        LuaStack(L!, bridge: nil).push(.string("\n\tnot from the host"))
        return 1
    }

    @Test func hostPointerIsFoundFromTheState() throws {
        let lua = try LuaState()
        final class Host {}
        let host = Host()
        let pointer = Unmanaged.passUnretained(host).toOpaque()
        lua.stack.setHost(pointer)
        #expect(LuaStack.host(of: lua.mainThread) == pointer)
    }

    @Test func searchersAreReplacedAndPathsEmptied() throws {
        let lua = try LuaState()
        let stack = lua.stack
        let stockCPath = try #require(try lua.run("return package.cpath", chunkName: "p.lua").first)
        let (cPath, cSearcher, cRootSearcher) = stack.replaceSearchers(with: Self.searcher)
        #expect(.string(cPath) == stockCPath)
        #expect(stack.top == 0)
        let after = try lua.run(
            "return #package.searchers, package.path, package.cpath, select(2, pcall(require, 'x'))",
            chunkName: "q.lua")
        #expect(after.prefix(3) == [.integer(2), .string(""), .string("")])
        // The installed searcher answered (a message, no loader): require's error carries it.
        #expect("\(after.last ?? .nil)".contains("not from the host"))
        for reference in [cSearcher, cRootSearcher] {
            stack.push(referenced: reference)
            #expect(stack.value(at: -1) == .opaque("function"))
            stack.pop()
            stack.release(reference)
        }
    }

    @Test func notingRequireRecordsWhoRequiredWhom() throws {
        let lua = try LuaState()
        let stack = lua.stack
        let (chunks, requires) = stack.installNotingRequire()
        #expect(stack.top == 0)
        try lua.run("package.preload.B = function() return 'b' end", chunkName: "setup.lua")
        // Module A's chunk, registered under its name, requires B while it runs.
        var source = "return require('B')"
        try source.withUTF8 { try lua.load(UnsafeRawBufferPointer($0), chunkName: "A.lua") }
        stack.rawSetTopAsKey(inReferencedTable: chunks, to: "A")
        #expect(try lua.call(argumentCount: 0) == [.string("b"), .string(":preload:")])
        let sets = stack.stringKeySets(inReferencedTable: requires).map {
            (String(decoding: $0.key, as: UTF8.self), $0.members.map { String(decoding: $0, as: UTF8.self) })
        }
        #expect(sets.count == 1)
        #expect(sets.first?.0 == "A")
        #expect(sets.first?.1 == ["B"])
        #expect(stack.top == 0)
    }

    @Test func globalsAreHeldAndSetByReference() throws {
        let lua = try LuaState()
        let stack = lua.stack
        let stockPrint = stack.referenceGlobal("print")
        stack.setGlobal("printAgain", referenced: stockPrint)
        stack.release(stockPrint)
        #expect(try lua.run("return printAgain == print", chunkName: "g.lua") == [.bool(true)])
        #expect(stack.top == 0)
    }
}
