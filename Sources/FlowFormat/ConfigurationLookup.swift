import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds the options for each file as StyLua does: `stylua.toml` or `.stylua.toml` in the
/// file's folder or the nearest folder above it; failing that, the `.editorconfig` sections
/// that match the file; failing that, StyLua's defaults. Folders are read once each, and the
/// walk up from a file's folder is made once for each folder, by all the threads that share
/// one lookup (`FormatRun`'s workers do).
package final class ConfigurationLookup: Sendable {
    private let known = Locked(Known())

    package init() {}

    /// The options for the file at `path` (absolute); throws when a configuration file that
    /// applies is not valid.
    package func options(for path: String) throws(ConfigurationError) -> FormatOptions {
        try known.withLock { (known: inout Known) throws(ConfigurationError) in try known.options(for: path) }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The contents of the file at `path`, or nil when it cannot be read (a missing file costs
    /// one failed `open`).
    static func contents(_ path: String) -> [UInt8]? {
        try? ReadableFile(path: path).readToEnd()
    }
}

/// What a lookup has read and found so far.
private struct Known: Sendable {
    private var styluaFiles: [String: FormatOptions?] = [:]
    private var editorConfigs: [String: EditorConfig?] = [:]
    /// For a file's folder: the options of the nearest StyLua file at or above it, or nil.
    private var nearestStylua: [String: FormatOptions?] = [:]
    /// For a file's folder: the `.editorconfig` files that apply, the nearest first.
    private var editorConfigChains: [String: [EditorConfig]] = [:]

    mutating func options(for path: String) throws(ConfigurationError) -> FormatOptions {
        let start = ConfigurationLookup.parent(of: path)
        if let known = nearestStylua[start] {
            if let known { return known }
            return try editorConfigOptions(for: path, folder: start)
        }
        var folder = start
        while true {
            if let found = try stylua(in: folder) {
                nearestStylua[start] = found
                return found
            }
            if folder == "/" || folder.isEmpty { break }
            folder = ConfigurationLookup.parent(of: folder)
        }
        nearestStylua[start] = .some(nil)
        return try editorConfigOptions(for: path, folder: start)
    }

    private mutating func stylua(in folder: String) throws(ConfigurationError) -> FormatOptions? {
        if let known = styluaFiles[folder] { return known }
        var found: FormatOptions?
        for name in StyLuaConfiguration.fileNames {
            let candidate = folder == "/" ? "/" + name : folder + "/" + name
            guard let data = ConfigurationLookup.contents(candidate) else { continue }
            found = try StyLuaConfiguration.parse(String(decoding: data, as: UTF8.self), path: candidate)
            break
        }
        styluaFiles[folder] = found
        return found
    }

    /// `.editorconfig` files from the file's folder up to one that says `root = true`, the
    /// nearest applied last.
    private mutating func editorConfigOptions(for path: String, folder start: String) throws(ConfigurationError)
        -> FormatOptions
    {
        let chain = editorConfigChain(from: start)
        var options = FormatOptions()
        for config in chain.reversed() { try config.apply(to: &options, for: path) }
        return options
    }

    /// The `.editorconfig` files at or above `start`, the nearest first, up to a root one.
    private mutating func editorConfigChain(from start: String) -> [EditorConfig] {
        if let known = editorConfigChains[start] { return known }
        var chain: [EditorConfig] = []
        var folder = start
        while true {
            if let config = editorConfig(in: folder) {
                chain.append(config)
                if config.isRoot { break }
            }
            if folder == "/" || folder.isEmpty { break }
            folder = ConfigurationLookup.parent(of: folder)
        }
        editorConfigChains[start] = chain
        return chain
    }

    private mutating func editorConfig(in folder: String) -> EditorConfig? {
        if let known = editorConfigs[folder] { return known }
        let candidate = folder == "/" ? "/.editorconfig" : folder + "/.editorconfig"
        let config = ConfigurationLookup.contents(candidate).map {
            EditorConfig(text: String(decoding: $0, as: UTF8.self), path: candidate, folder: folder)
        }
        editorConfigs[folder] = config
        return config
    }
}
