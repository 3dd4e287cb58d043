import FlowLoader
import FlowLua
import FlowPackage

/// The project's module resolution: the one searcher a context puts in `package.searchers`,
/// after `package.preload`, where stock Lua's file searchers were. Stock `require` asks it.
extension ContextCore {
    /// A module of the loader's sources by name; else a file that `package.path`'s templates
    /// name inside a source's module folder (a program that adds its own folder to the path,
    /// as Penlight's `app.require_here` does), named as stock Lua names the file. No other file
    /// is read. Returns the chunk and its file (the loader's second argument), or what was tried.
    func search(_ thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        let text = stack.bytes(at: 1).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var tried: [String]
        if let name = ModuleName.required(text) {
            do {
                let code = try loader.module(named: name)
                guard let state else { throw LuaContextError.terminated }
                try code.bytes.withUnsafeBytes {
                    try state.loadFile($0, rawChunkName: "@" + code.chunkName, on: thread)
                }
                registerChunk(of: name, on: thread)
                stack.push(message: code.chunkName)
                return 2
            } catch LoaderError.moduleNotFound(_, let searched) {
                tried = notFound(name, searched: searched)
            } catch let error as LuaError {
                stack.push(message: "error loading module '\(name)':\n\t\(error.message)")
                return -1
            } catch {
                stack.push(message: "error loading module '\(name)': \(error)")
                return -1
            }
        } else {
            tried = ["no module '\(text)': not a valid module name"]
        }
        guard let path = stack.packagePath() else {
            stack.push(message: tried.joined(separator: "\n\t"))
            return 1
        }
        return searchPath(String(decoding: path, as: UTF8.self), for: text, tried: tried, on: thread)
    }

    /// As stock Lua's searcher words a miss (`no file 'Sources/x.lua'`), with the files this
    /// context's sources would have held the module in.
    private func notFound(_ name: ModuleName, searched: [String]) -> [String] {
        var tried: [String] = []
        for source in loader.sources {
            let paths = source.searchedPaths(for: name)
            tried += paths.isEmpty ? ["no module '\(name)' in \(source.place)"] : paths.map { "no file '\($0)'" }
        }
        if tried.isEmpty { tried = searched.map { "no module '\(name)' in \($0)" } }
        return tried.isEmpty ? ["no module '\(name)' (no sources)"] : tried
    }

    /// Walks `path`'s templates (`;`-separated, `?` standing for the name with `.` as `/`) as
    /// stock Lua's file searcher does, over the loader's module files.
    private func searchPath(_ path: String, for name: String, tried: [String], on thread: LuaThread) -> Int32 {
        let stack = LuaStack(thread, bridge: self)
        let file = name.replacing(".", with: "/")
        var tried = tried
        for template in path.split(separator: ";", omittingEmptySubsequences: true) {
            let filename = String(template.replacing("?", with: file))
            do {
                guard let code = try loader.module(atFile: filename) else {
                    tried.append("no file '\(filename)'")
                    continue
                }
                guard let state else { throw LuaContextError.terminated }
                try code.bytes.withUnsafeBytes { try state.loadFile($0, rawChunkName: "@" + filename, on: thread) }
                stack.push(message: filename)
                return 2
            } catch let error as LuaError {
                stack.push(message: "error loading module '\(name)' from file '\(filename)':\n\t\(error.message)")
                return -1
            } catch {
                stack.push(message: "cannot load '\(filename)': \(error)")
                return -1
            }
        }
        stack.push(message: tried.joined(separator: "\n\t"))
        return 1
    }
}
