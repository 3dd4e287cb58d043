import Foundation

/// luacheck 1.1 (Debian's lua-check, installed by .ci/setup), run as a user runs it: what
/// flowpkg's lint classes and `.luacheckrc` reading are held to.
public enum InstalledLuacheck {
    public static let path = "/usr/bin/luacheck"

    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// luacheck's standard output for `arguments`, run in `folder`.
    public static func output(_ arguments: [String], in folder: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
