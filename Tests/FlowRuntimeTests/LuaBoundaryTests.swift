import Foundation
import Testing

/// STYLE.md: C pointers never leave the type that wraps them. Above FlowLua nothing holds a
/// `lua_State` (an `OpaquePointer` in Swift): the runtime speaks FlowLua's `LuaThread`,
/// `LuaStack` and host functions.
@Suite struct LuaBoundaryTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func noLuaStatePointerAboveFlowLua() throws {
        var offenders: [String] = []
        for target in ["FlowRuntime", "FlowLiveDevelopment"] {
            let folder = Self.root.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            #expect(!files.isEmpty, "no sources found in \(folder.path)")
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("OpaquePointer") || line.contains("import CLua") {
                    offenders.append("Sources/\(target)/\(file):\(number + 1): \(line)")
                }
            }
        }
        #expect(offenders == [])
    }
}
