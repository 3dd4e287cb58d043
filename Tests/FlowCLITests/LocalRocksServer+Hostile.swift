import Foundation

extension LocalRocksServer {
    /// Publishes a source rock (`NAME-VERSION.src.rock`) whose rockspec's `build` table is
    /// `build` as written, with `files` (path in the source → text) in its source archive: a
    /// rock a hostile server would serve, with a build command or non-Lua files to install.
    func publishSource(_ name: String, _ version: String, build: String, files: [String: String]) throws {
        let upstream = version.split(separator: "-")[0]
        let source = work.appendingPathComponent("\(name)-\(version)-source")
        let tree = source.appendingPathComponent("\(name)-\(upstream)")
        for (path, text) in files {
            let file = tree.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Self.program("/usr/bin/tar", ["czf", "\(name)-\(upstream).tar.gz", "\(name)-\(upstream)"], in: source)
        let rockspec = """
            package = "\(name)"
            version = "\(version)"
            source = { url = "file://\(source.path)/\(name)-\(upstream).tar.gz", dir = "\(name)-\(upstream)" }
            dependencies = { "lua >= 5.1" }
            build = \(build)

            """
        let rockspecFile = source.appendingPathComponent("\(name)-\(version).rockspec")
        try Data(rockspec.utf8).write(to: rockspecFile)
        // A server swaps what it serves: an earlier rock of this name and version goes first.
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasPrefix("\(name)-\(version).") {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        }
        try Self.luarocks(["pack", rockspecFile.path], in: folder)
        try makeManifest()
    }
}
