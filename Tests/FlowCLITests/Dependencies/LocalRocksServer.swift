import Foundation

/// A rocks server in a folder, built the way a maintainer publishes rocks: `luarocks make` of a
/// rockspec into a scratch tree, `luarocks pack` into the folder, then
/// `luarocks-admin make-manifest`. The Lua files come from Debian's lua-inspect, lua-dkjson and
/// lua-penlight, so the rocks hold real code.
struct LocalRocksServer {
    let folder: URL
    let work: URL

    init(in scratch: URL) throws {
        folder = scratch.appendingPathComponent("rocks")
        work = scratch.appendingPathComponent("rock-sources")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    /// The Debian file `name` for the newest Lua it ships for (5.4, else 5.3 or 5.1).
    static func debianLuaFile(_ name: String) -> URL {
        for version in ["5.4", "5.3", "5.1"] {
            let path = "/usr/share/lua/\(version)/\(name)"
            if FileManager.default.fileExists(atPath: path) { return URL(fileURLWithPath: path) }
        }
        return URL(fileURLWithPath: "/usr/share/lua/5.1/\(name)")
    }

    /// Publishes a pure-Lua rock whose `modules` map module names to (path in the rock, bytes).
    func publishPure(
        _ name: String, _ version: String, modules: [String: (path: String, contents: Data)],
        dependencies: [String] = []
    ) throws {
        let source = work.appendingPathComponent("\(name)-\(version)")
        for (_, module) in modules {
            let file = source.appendingPathComponent(module.path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try module.contents.write(to: file)
        }
        let moduleLines = modules.keys.sorted().map { "    [\"\($0)\"] = \"\(modules[$0]!.path)\"," }
        let rockspec = """
            package = "\(name)"
            version = "\(version)"
            source = { url = "git://example.invalid/\(name)" }
            dependencies = { \((["lua >= 5.1"] + dependencies).map { "\"\($0)\"" }.joined(separator: ", ")) }
            build = {
              type = "builtin",
              modules = {
            \(moduleLines.joined(separator: "\n"))
              }
            }

            """
        let rockspecFile = source.appendingPathComponent("\(name)-\(version).rockspec")
        try Data(rockspec.utf8).write(to: rockspecFile)
        let tree = work.appendingPathComponent("tree").path
        try Self.luarocks(
            ["--lua-version", "5.4", "--tree", tree, "make", "--deps-mode=none", rockspecFile.path], in: source)
        try Self.luarocks(["--lua-version", "5.4", "--tree", tree, "pack", name, version], in: folder)
        try makeManifest()
    }

    /// Publishes `say` 1.4.1-1 and `luassert` 1.9.0-1 (which depends on it) from Debian's
    /// lua-say and lua-luassert, the files busted uses here: what `flowpkg add --dev luassert` takes.
    func publishAssertions() throws {
        let base = URL(fileURLWithPath: "/usr/share/lua/5.1")
        func modules(_ folder: String) throws -> [String: (path: String, contents: Data)] {
            var found: [String: (path: String, contents: Data)] = [:]
            let walker = FileManager.default.enumerator(atPath: base.appendingPathComponent(folder).path)
            while let relative = walker?.nextObject() as? String {
                guard relative.hasSuffix(".lua") else { continue }
                let path = folder + "/" + relative
                var name = String(path.dropLast(4)).replacingOccurrences(of: "/", with: ".")
                if name.hasSuffix(".init") { name = String(name.dropLast(5)) }
                found[name] = (path, try Data(contentsOf: base.appendingPathComponent(path)))
            }
            return found
        }
        try publishPure("say", "1.4.1-1", modules: try modules("say"))
        try publishPure("luassert", "1.9.0-1", modules: try modules("luassert"), dependencies: ["say >= 1.4"])
    }

    /// Publishes a source rock with a C module (`lfs`, standing in for luafilesystem).
    func publishC(_ name: String, _ version: String, module: String) throws {
        let upstream = version.split(separator: "-")[0]
        let source = work.appendingPathComponent("\(name)-c")
        let tree = source.appendingPathComponent("\(name)-\(upstream)/src")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Data("int luaopen_\(module)(void *L) { return 0; }\n".utf8).write(
            to: tree.appendingPathComponent("\(module).c"))
        try Self.program("/usr/bin/tar", ["czf", "\(name)-\(upstream).tar.gz", "\(name)-\(upstream)"], in: source)
        let rockspec = """
            package = "\(name)"
            version = "\(version)"
            source = { url = "file://\(source.path)/\(name)-\(upstream).tar.gz", dir = "\(name)-\(upstream)" }
            build = { type = "builtin", modules = { \(module) = "src/\(module).c" } }

            """
        let rockspecFile = source.appendingPathComponent("\(name)-\(version).rockspec")
        try Data(rockspec.utf8).write(to: rockspecFile)
        try Self.luarocks(["pack", rockspecFile.path], in: folder)
        try makeManifest()
    }

    /// Publishes a binary rock, as `luarocks pack` of an installed C rock makes it
    /// (`NAME-VERSION.linux-x86_64.rock`): the C module compiled here, by gcc, into its `lib/`.
    func publishBinary(_ name: String, _ version: String, module: String) throws {
        let source = work.appendingPathComponent("\(name)-binary")
        try FileManager.default.createDirectory(
            at: source.appendingPathComponent("src"), withIntermediateDirectories: true)
        try Data("int luaopen_\(module)(void *L) { return 0; }\n".utf8).write(
            to: source.appendingPathComponent("src/\(module).c"))
        let rockspec = """
            package = "\(name)"
            version = "\(version)"
            source = { url = "git://example.invalid/\(name)" }
            build = { type = "builtin", modules = { \(module) = "src/\(module).c" } }

            """
        let rockspecFile = source.appendingPathComponent("\(name)-\(version).rockspec")
        try Data(rockspec.utf8).write(to: rockspecFile)
        let tree = work.appendingPathComponent("binary-tree").path
        try Self.luarocks(
            ["--lua-version", "5.4", "--tree", tree, "make", "--deps-mode=none", rockspecFile.path], in: source)
        try Self.luarocks(["--lua-version", "5.4", "--tree", tree, "pack", name, version], in: folder)
        try makeManifest()
    }

    func makeManifest() throws {
        try Self.program("/usr/bin/luarocks-admin", ["make-manifest", folder.path], in: folder)
    }

    static func luarocks(_ arguments: [String], in directory: URL) throws {
        try program("/usr/bin/luarocks", arguments, in: directory)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func program(_ path: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:])
        throws -> String
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = directory.appendingPathComponent(".out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(path) \(arguments.joined(separator: " ")) failed:\n\(text)")
        }
        return text
    }
}
