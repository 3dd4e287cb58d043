import FlowLoader
import FlowLua
import FlowPackage
import FlowTestSupport
import Foundation
import Testing
@testable import FlowRuntime

/// A context's `loadfile` and `dofile` run stock Lua's own for any path the package does not
/// serve, in their own frame: what a plain Lua state gives, message and traceback alike.
@Suite struct StockLoadersTests {
    /// `source` run as `main.lua` in a context over a package and in a plain state: the results,
    /// or the error's message and traceback.
    private static func outcomes(of source: String) throws -> (context: String, stock: String) {
        func outcome(_ body: () throws -> [LuaValue]) -> String {
            do {
                return "\(try body())"
            } catch let error as LuaError {
                return "\(error.message)\n\(error.traceback ?? "")"
            } catch {
                return "\(error)"
            }
        }
        let (context, _) = try makeContext(modules: ["main": "return 1"])
        let stock = try LuaState()
        return (
            outcome { try context.execute(source, chunkName: "main.lua") },
            outcome { try stock.run(source, chunkName: "main.lua") }
        )
    }

    @Test func aFileOnDiskLoadsAndFailsAsInStockLua() throws {
        let folder = try Scratch("stock-loaders").url
        defer { try? FileManager.default.removeItem(at: folder) }
        let failing = folder.appendingPathComponent("failing.lua").path
        let fine = folder.appendingPathComponent("fine.lua").path
        try "local function inner()\n  error('boom')\nend\ninner()\n".write(
            toFile: failing, atomically: true, encoding: .utf8)
        try "return ..., 'fine'\n".write(toFile: fine, atomically: true, encoding: .utf8)
        for source in [
            "dofile('\(failing)')",
            "local function run() dofile('\(failing)') end\nrun()",
            "return dofile('\(fine)')",
            "dofile('/no/such/file.lua')",
            "dofile({})",
            "return loadfile('\(fine)')('x')",
            "return loadfile('/no/such/file.lua')",
            "return loadfile('\(fine)', 'b')",
            "return loadfile('\(fine)', {})",
            "return loadfile('\(fine)', 't', { })('y')",
        ] {
            let (context, stock) = try Self.outcomes(of: source)
            #expect(context == stock, "\(source)")
        }
    }
}
