import FlowSupport
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
import FlowPackage

/// One module or resource a context loaded, and the source that served it (CodeFlow's
/// "Loaded Items").
public struct LoadedItem: Equatable, Sendable, CustomStringConvertible {
    public enum Item: Equatable, Hashable, Sendable {
        case module(ModuleName)
        case resource(ResourceKey)
    }

    public var item: Item
    public var source: SourceKind
    /// The source's location: a package path, a folder, a URL.
    public var location: String

    public init(item: Item, source: SourceKind, location: String) {
        self.item = item
        self.source = source
        self.location = location
    }

    public var description: String {
        switch item {
        case .module(let name): return "module \(name) <- \(source.rawValue) \(location)"
        case .resource(let key): return "resource \(key) <- \(source.rawValue) \(location)"
        }
    }
}

/// Finds modules and resources by asking its sources in priority order, and remembers which
/// source served each one.
///
/// Thread-safe: a context reads through it from its own thread while the host (or a live
/// source connecting later) changes the source list from another.
public final class Loader: Sendable {
    /// The package identifier every source must serve.
    public let identifier: PackageIdentifier

    private struct State {
        var sources: [any PackageSource]
        var provenance: [LoadedItem.Item: Int] = [:]
        var items: [LoadedItem] = []
        var loadObservers: [@Sendable (LoadedItem) -> Void] = []
        var byteObservers: [@Sendable (LoadedItem, [UInt8]) -> Void] = []
        var moduleObservers: [@Sendable (ModuleCode) -> Void] = []
    }

    private let state: Locked<State>

    /// A loader over `sources`, highest priority first; each must serve `identifier`.
    public init(identifier: PackageIdentifier, sources: [any PackageSource]) throws(LoaderError) {
        self.identifier = identifier
        for source in sources { try Self.check(source, serves: identifier) }
        state = Locked(State(sources: sources))
    }

    /// The sources, highest priority first.
    public var sources: [any PackageSource] {
        state.withLock { $0.sources }
    }

    /// Puts `source` at `position` in the priority order (0 is the highest): a live source that
    /// connects after start-up takes over from then on.
    public func insert(_ source: any PackageSource, at position: Int = 0) throws(LoaderError) {
        try Self.check(source, serves: identifier)
        state.withLock { $0.sources.insert(source, at: min(max(position, 0), $0.sources.count)) }
    }

    /// Removes every source of `kind` (a dropped live connection); what is loaded keeps running.
    public func removeSources(of kind: SourceKind) {
        state.withLock { $0.sources.removeAll { $0.kind == kind } }
    }

    /// Every module and resource served so far, in first-load order, each with its latest source.
    public var loadedItems: [LoadedItem] {
        state.withLock { $0.items }
    }

    /// Calls `observer` after every load (reloads too), on the loading thread, with the item and
    /// the source that served it: a trace shown as it happens, not at exit.
    public func observeLoads(_ observer: @escaping @Sendable (LoadedItem) -> Void) {
        state.withLock { $0.loadObservers.append(observer) }
    }

    /// The module's code from the first source that has it.
    public func module(named name: ModuleName) throws(LoaderError) -> ModuleCode {
        let sources = self.sources
        for source in sources {
            let code: ModuleCode?
            do {
                code = try source.module(named: name) ?? Self.initModule(named: name, in: source)
            } catch let error as LoaderError {
                throw error
            } catch {
                throw .itemRefused(item: "module '\(name)'", location: source.location, reason: "\(error)")
            }
            if let code {
                record(.module(name), from: source, bytes: code.bytes)
                for observer in state.withLock({ $0.moduleObservers }) { observer(code) }
                return code
            }
        }
        throw .moduleNotFound(name, searched: sources.map(\.place))
    }

    /// `require "a.b.init"` gets `a/b/init.lua` as stock Lua's searchers do: the file a source
    /// has as module `a.b` when there is no `a/b.lua` (beside one, the file is module `a.b.init`).
    static func initModule(named name: ModuleName, in source: any PackageSource) throws -> ModuleCode? {
        guard let parent = name.initParent, var code = try source.module(named: parent),
            code.path == parent.initFilePath
        else { return nil }
        code.name = name
        return code
    }

    /// The name Lua errors give module `name`'s file in the first source that has it, found
    /// without reading it (what `flowpkg run` shows as `arg[0]`).
    public func chunkName(ofModule name: ModuleName) -> String? {
        for source in sources { if let chunkName = source.chunkName(ofModule: name) { return chunkName } }
        return nil
    }

    /// The module whose file a program names by `path` (absolute, or relative to the working
    /// directory; `package.path` can lead there): a path inside a source's module folder (`/work/App/Sources/lua/mod52.lua`) names
    /// the module stored there (`lua.mod52`), served as `module(named:)` serves it. Nil for any
    /// other path, and for a file that is no module.
    public func module(atFile path: String) throws(LoaderError) -> ModuleCode? {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        for source in sources {
            for folder in source.moduleFolders {
                let prefix = folder.hasSuffix("/") ? folder : folder + "/"
                guard path.hasPrefix(prefix), path.hasSuffix(".lua") else { continue }
                let relative = String(path.dropFirst(prefix.count))
                let stem = String(relative.dropLast(4))
                // `a/init.lua` is module `a`, or `a.init` beside an `a.lua`.
                var names = [stem]
                if stem == "init" || stem.hasSuffix("/init") { names.insert(String(stem.dropLast(5)), at: 0) }
                for candidate in names {
                    guard !candidate.isEmpty,
                        let name = try? ModuleName(candidate.replacingAll("/", with: "."))
                    else { continue }
                    let code: ModuleCode
                    do {
                        code = try module(named: name)
                    } catch .moduleNotFound {
                        continue
                    }
                    if code.path == relative { return code }
                }
            }
        }
        return nil
    }

    /// The script at `path` (relative to the sources folder) from the first source that has
    /// it; nil when none has, so `loadfile` and `dofile` go on to the file system.
    public func script(atPath path: String) throws(LoaderError) -> ScriptCode? {
        for source in sources {
            do {
                if let code = try source.script(atPath: path) { return code }
            } catch let error as LoaderError {
                throw error
            } catch {
                throw .itemRefused(item: "script '\(path)'", location: source.location, reason: "\(error)")
            }
        }
        return nil
    }

    /// The resource's bytes from the first source that has it.
    public func resource(_ key: ResourceKey) throws(LoaderError) -> [UInt8] {
        let sources = self.sources
        for source in sources {
            let bytes: [UInt8]?
            do {
                bytes = try source.resource(key)
            } catch let error as LoaderError {
                throw error
            } catch {
                throw .itemRefused(item: "resource '\(key)'", location: source.location, reason: "\(error)")
            }
            if let bytes {
                record(.resource(key), from: source, bytes: bytes)
                return bytes
            }
        }
        throw .resourceNotFound(key, searched: sources.map(\.place))
    }

    /// Like `observeLoads`, with the bytes that were served (a live session reports their size
    /// and SHA-256, computed off the loading thread).
    public func observeLoads(withBytes observer: @escaping @Sendable (LoadedItem, [UInt8]) -> Void) {
        state.withLock { $0.byteObservers.append(observer) }
    }

    /// Calls `observer` with each module's code as it is served (reloads too), on the loading
    /// thread: its chunk name is the one Lua runs it under (a debugger matches breakpoints by it).
    public func observeModules(_ observer: @escaping @Sendable (ModuleCode) -> Void) {
        state.withLock { $0.moduleObservers.append(observer) }
    }

    private func record(_ item: LoadedItem.Item, from source: any PackageSource, bytes: [UInt8]) {
        let entry = LoadedItem(item: item, source: source.kind, location: source.location)
        let (observers, byteObservers) = state.withLock { state in
            if let index = state.provenance[item] {
                state.items[index] = entry
            } else {
                state.provenance[item] = state.items.count
                state.items.append(entry)
            }
            return (state.loadObservers, state.byteObservers)
        }
        for observer in observers { observer(entry) }
        for observer in byteObservers { observer(entry, bytes) }
    }

    private static func check(_ source: any PackageSource, serves identifier: PackageIdentifier) throws(LoaderError) {
        guard source.identifier == identifier else {
            throw .identifierMismatch(location: source.location, expected: identifier, found: source.identifier)
        }
    }
}
