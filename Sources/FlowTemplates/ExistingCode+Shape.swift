import FlowLua
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a person sees in a tree besides its modules: asset folders, spec folders, benchmarks and
/// examples, and the host it is written for (a LÖVE game, a Neovim plugin).
extension ExistingCode {
    /// Folders whose files are a program's assets.
    static let assetFolders = ["assets", "data", "images", "img", "gfx", "sounds", "sfx", "music", "fonts"]
    /// Folders of busted specs and tests.
    static let specFolders = ["spec", "test", "tests"]
    /// Folders that are beside the program, not part of it.
    static let asideFolders = ["bench", "benchmark", "benchmarks", "examples", "example", "samples", "doc", "docs"]

    /// Scripts at the top of the sources named as benchmarks are (`perf.lua`, `bench.lua`,
    /// `benchmark_strings.lua`, `parse_bench.lua`): beside the program, as `bench/` is.
    static let asideScriptNames = ["bench", "benchmark", "benchmarks", "perf"]

    static func isAsideScript(_ file: String) -> Bool {
        guard file.hasSuffix(".lua"), !file.contains("/") else { return false }
        let stem = String(file.dropLast(4)).lowercased()
        return asideScriptNames.contains {
            stem == $0 || stem.hasPrefix($0 + "_") || stem.hasPrefix($0 + "-") || stem.hasSuffix("_" + $0)
                || stem.hasSuffix("-" + $0)
        }
    }

    mutating func readShape(root: String, files: [String], required: Set<String>) {
        let topFolders = Set(
            files.compactMap { $0.split(separator: "/").count > 1 ? $0.split(separator: "/")[0] : nil }
        )
        .map(String.init)
        let sources = self.sources
        let underSources = { (folder: String) in sources == "." || folder.hasPrefix(sources + "/") }
        tests = Self.specFolders.filter { topFolders.contains($0) }
        if !tests.isEmpty { decisions.append("tests: \(tests.joined(separator: ", ")) (spec folders: never packaged)") }
        exclude = Self.asideFolders.filter { topFolders.contains($0) && underSources($0) }
        // A benchmark script at the top of the sources, unless a module requires it or it starts the program.
        let prefix = sources == "." ? "" : sources + "/"
        exclude += files.filter { file in
            guard file.hasPrefix(prefix) else { return false }
            let name = String(file.dropFirst(prefix.count))
            let module = String(name.dropLast(4))
            return Self.isAsideScript(name) && !required.contains(module) && startModule != module
        }
        if !exclude.isEmpty {
            decisions.append(
                "exclude: \(exclude.joined(separator: ", ")) (beside the program: not validated, not packaged)")
        }
        resources = Self.assetFolders.filter { Self.holdsNonLuaFiles(root + "/" + $0) }
        if !resources.isEmpty {
            decisions.append("resources: \(resources.joined(separator: ", ")) (asset folders: packaged as resources)")
        }
        readHost(root: root, files: files)
    }

    /// A LÖVE game (`conf.lua`, or `main.lua` using `love.*`) or a Neovim plugin (`lua/` with
    /// `plugin/`, or code using `vim.*`): its host's globals come from luacheck's std.
    mutating func readHost(root: String, files: [String]) {
        let isFolder = { (name: String) in
            var info = stat()
            return lstat(root + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
        let sample = files.prefix(200)
        let uses = { (word: String) in sample.contains { Self.text(ofFileAt: root + "/" + $0).contains(word) } }
        if (files.contains("conf.lua") || files.contains("main.lua")) && uses("love.") {
            luacheckStd = "luajit+love"
            allowsDefinedTop = true
            decisions.append(
                "a LÖVE game (love.* in its code): luacheck std \"luajit+love\" for its globals, and"
                    + " allow_defined_top = true (its files share the globals they set at their top level)")
        } else if isFolder("lua") && (isFolder("plugin") || uses("vim.")) {
            luacheckStd = "luajit+nvim"
            decisions.append("a Neovim plugin (lua/ and plugin/, vim.*): luacheck std \"luajit+nvim\" for its globals")
        }
    }

    /// `.luacheckrc` for a tree that has none but whose host is known.
    public var luacheckrcText: String? {
        luacheckStd.map { std in
            var text = "-- written by flowpkg init: the globals of the host this code runs in\nstd = \"\(std)\"\n"
            if allowsDefinedTop {
                text += "-- globals set at the top level of a file are the game's own, used by its other files\n"
                text += "allow_defined_top = true\n"
            }
            return text
        }
    }

    static func text(ofFileAt path: String) -> String {
        guard let bytes = try? LuaSandbox(maximumSize: maximumFileSize).contents(ofFileAt: path, name: path) else {
            return ""
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the folder at `path` holds a regular file that is not Lua, a level or two down.
    static func holdsNonLuaFiles(_ path: String, depth: Int = 0) -> Bool {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where !entry.hasPrefix(".") {
            var info = stat()
            guard lstat(path + "/" + entry, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFREG, !entry.hasSuffix(".lua") { return true }
            if (info.st_mode & S_IFMT) == S_IFDIR, depth < 2, holdsNonLuaFiles(path + "/" + entry, depth: depth + 1) {
                return true
            }
        }
        return false
    }
}
