import FlowLoader
import FlowLua
import FlowPackage

/// Which module required which, and the order a reload re-runs them in; on the executor only.
///
/// `flowlua_require` notes, at every `require`, the innermost module whose main chunk is
/// running; the searcher and `reload` register each module's chunk so it can be recognised.
/// A module's notes are taken afresh each time it runs.
extension ContextCore {
    /// Remembers the function on top of the stack as module `name`'s main chunk.
    func registerChunk(of name: ModuleName, on thread: LuaThread) {
        LuaStack(thread, bridge: nil).rawSetTopAsKey(inReferencedTable: chunksReference, to: name.rawValue)
    }

    /// Takes module `name`'s notes out (it is about to run again and note afresh), returning a
    /// registry reference that `restoreRequires` puts back when the run fails.
    func takeRequires(of name: ModuleName, on thread: LuaThread) -> Int32 {
        LuaStack(thread, bridge: nil).rawTake(name.rawValue, fromReferencedTable: requiresReference)
    }

    /// Puts back (`restore`) or drops the notes `takeRequires` took out.
    func finishRequires(of name: ModuleName, saved: Int32, restore: Bool, on thread: LuaThread) {
        let stack = LuaStack(thread, bridge: nil)
        if restore { stack.rawSet(name.rawValue, inReferencedTable: requiresReference, toReferenced: saved) }
        stack.release(saved)
    }

    /// Every module that ran, with the modules it required while its main chunk ran.
    func requireGraph() throws -> [ModuleName: Set<ModuleName>] {
        let (_, thread) = try live()
        var graph: [ModuleName: Set<ModuleName>] = [:]
        for (key, members) in LuaStack(thread, bridge: nil).stringKeySets(inReferencedTable: requiresReference) {
            guard let requirer = try? ModuleName(String(decoding: key, as: UTF8.self)) else { continue }
            graph[requirer] = Set(members.compactMap { try? ModuleName(String(decoding: $0, as: UTF8.self)) })
        }
        return graph
    }

    /// The modules to run again when `changed` change: each changed module that is loaded,
    /// then every loaded module that required one of them directly or through others, each
    /// after the modules it requires (within a cycle, changed modules first, then by name).
    func reloadOrder(for changed: [ModuleName], graph: [ModuleName: Set<ModuleName>]) throws -> [ModuleName] {
        var requirers: [ModuleName: Set<ModuleName>] = [:]
        for (module, required) in graph {
            for name in required where name != module { requirers[name, default: []].insert(module) }
        }
        var affected = Set<ModuleName>()
        var pending = try changed.filter { try isLoaded($0) }
        while let module = pending.popLast() {
            guard affected.insert(module).inserted else { continue }
            for requirer in requirers[module] ?? [] where try isLoaded(requirer) { pending.append(requirer) }
        }
        var order: [ModuleName] = []
        var remaining = affected
        let changedSet = Set(changed)
        while !remaining.isEmpty {
            var ready = remaining.filter { (graph[$0] ?? []).subtracting([$0]).isDisjoint(with: remaining) }.sorted()
            if ready.isEmpty {
                ready = [remaining.filter { changedSet.contains($0) }.min() ?? remaining.min()!]
            }
            order += ready
            remaining.subtract(ready)
        }
        return order
    }

    /// Whether `require` has run the module (its `package.loaded` entry is set).
    func isLoaded(_ name: ModuleName) throws -> Bool {
        let (_, thread) = try live()
        return LuaStack(thread, bridge: nil).isModuleLoaded(name.rawValue)
    }
}
