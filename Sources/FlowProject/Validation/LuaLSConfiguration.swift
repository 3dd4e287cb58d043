import FlowAnalysis
import FlowDiagnostics
import FlowJSON
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `.luarc.json`, lua-language-server's configuration, as a LuaLS user's project has it: its
/// `diagnostics.globals` are defined, its `diagnostics.disable` names are not reported (the
/// types' findings and `undefined-global`), a `runtime.version` of Lua 5.1 or LuaJIT defines
/// 5.1's globals (`unpack`, …), and `workspace.library` folders inside the project hold
/// definition files. Keys may be nested (`{"diagnostics": {"globals": […]}}`) or dotted
/// (`"diagnostics.globals"`), and `//` comments are allowed, as LuaLS allows them.
struct LuaLSConfiguration {
    static let fileName = ".luarc.json"
    static let maximumSize = 1 << 20

    var globals: [String] = []
    var disabled: Set<String> = []
    var libraries: [String] = []
    var runtimeVersion: String?
    var diagnostics: [Diagnostic] = []

    /// Whether the runtime LuaLS is told of has Lua 5.1's globals.
    var hasLegacyGlobals: Bool {
        guard let runtimeVersion else { return false }
        return runtimeVersion == "Lua 5.1" || runtimeVersion == "LuaJIT"
    }

    static func load(inProject root: URL) -> LuaLSConfiguration {
        var configuration = LuaLSConfiguration()
        let file = root.appendingPathComponent(fileName)
        var info = stat()
        guard lstat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= maximumSize,
            let data = FileManager.default.contents(atPath: file.path)
        else { return configuration }
        do {
            let node = try JSONParser.parse(withoutComments([UInt8](data)))
            configuration.read(node)
        } catch {
            configuration.diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .unreadableLuaLSConfiguration,
                    message: "\(fileName) is not valid JSON: \(error.message); its settings are not used",
                    file: file.path, line: error.position.line, column: error.position.column,
                    hint: "fix the JSON, or remove the file"))
        }
        return configuration
    }

    /// The value at a dotted key, nested or written with its dots.
    private static func value(_ key: String, in node: JSONNode) -> JSONNode? {
        if let flat = node[key] { return flat }
        var current: JSONNode? = node
        for part in key.split(separator: ".") { current = current?[String(part)] }
        return current
    }

    private static func strings(_ node: JSONNode?) -> [String] {
        guard case .array(let items) = node?.value else { return [] }
        return items.compactMap { if case .string(let text) = $0.value { return text } else { return nil } }
    }

    private mutating func read(_ node: JSONNode) {
        globals = Self.strings(Self.value("diagnostics.globals", in: node))
        disabled = Set(Self.strings(Self.value("diagnostics.disable", in: node)))
        libraries = Self.strings(Self.value("workspace.library", in: node))
        if case .string(let version) = Self.value("runtime.version", in: node)?.value { runtimeVersion = version }
    }

    /// The bytes with `//` comments outside strings blanked (line and column kept).
    static func withoutComments(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A {
                    bytes[index] = 0x20
                    index += 1
                }
                continue
            }
            index += 1
        }
        return bytes
    }
}
