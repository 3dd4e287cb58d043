import FlowDiagnostics
import FlowLua
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

/// The globals a project's `.luacheckrc` declares, so a luacheck user's configuration carries
/// over: `globals`, `read_globals`, `new_globals`, `new_read_globals` and `std` (a named set
/// such as `lua54+busted`, a custom one from `stds`, or a table), at the top level and in every
/// `files[...]` section.
///
/// The file is Lua, and luacheck runs it; so does this, as luacheck does (its assignments are
/// the options), in FlowLua's sandbox (`LuaSandbox`), so a configuration can compute its lists
/// but can neither read, write nor hang.
enum LuacheckConfig {
    static let fileName = ".luacheckrc"

    /// The names `.luacheckrc` in `root` declares, and a warning when it cannot be evaluated
    /// (its names are then not used). None when there is no such file.
    static func globals(inProject root: URL, allowsOutsideLinks: Bool = false)
        -> (names: [String], diagnostics: [Diagnostic])
    {
        let read = read(inProject: root, allowsOutsideLinks: allowsOutsideLinks)
        guard let options = read.options else { return ([], read.diagnostics) }
        return (names(in: options), read.diagnostics)
    }

    /// `.luacheckrc` in `root` evaluated once (validation reads its options and its
    /// diagnostics from this one run: with 500,000 globals each evaluation takes seconds), and
    /// why it could not be: a warning when it cannot be evaluated, an error for a refused link.
    /// No options and no diagnostics when there is no such file.
    /// A `.luacheckrc` that is a symbolic link must lead inside the project's repository (or
    /// elsewhere with `allowsOutsideLinks`), never to `/proc`, `/sys`, `/dev` or a special file.
    static func read(inProject root: URL, allowsOutsideLinks: Bool = false)
        -> (options: [String: LuaValue]?, diagnostics: [Diagnostic])
    {
        let file = root.appendingPathComponent(fileName)
        var info = stat()
        guard lstat(file.path, &info) == 0 else { return (nil, []) }
        if (info.st_mode & S_IFMT) != S_IFREG {
            let links = LinkRule(
                projectRoot: FileTree.realPath(root.path) ?? root.path, allowsOutside: allowsOutsideLinks)
            // A broken link is no configuration, as a missing file is.
            guard let target = FileTree.realPath(file.path) else { return (nil, []) }
            if let refusal = links.refusal(of: target) {
                let (message, hint) = links.explain(refusal, link: fileName, what: "the luacheck configuration")
                let diagnostic = Diagnostic(
                    severity: .error, code: refusal.isAllowedByOptIn ? .linkOutsideRepository : .linkRefused,
                    message: message + ", so its globals are not used", file: file.path, hint: hint)
                return (nil, [diagnostic])
            }
        }
        do {
            // The size first: a 400 MB file of spaces is refused unread, a FIFO never waited on.
            let source = try LuaSandbox(maximumSize: maximumSize).contents(ofFileAt: file.path, name: fileName)
            evaluations.withLock { $0[file.path, default: 0] += 1 }
            return (try options(source, chunkName: fileName), [])
        } catch {
            let diagnostic = Diagnostic(
                severity: .warning, code: .invalidValue,
                message: "the luacheck configuration could not be evaluated, so its globals are not used: \(error)",
                file: file.path, hint: "luacheck evaluates it as Lua: fix the error it names")
            return (nil, [diagnostic])
        }
    }

    /// How many times the `.luacheckrc` at each path was evaluated: once per validation
    /// (`LargeLuacheckConfigTests`; it was twice, seconds each with 500,000 globals).
    static let evaluations = Locked<[String: Int]>([:])

    /// Larger files are not evaluated: a configuration is a few lines (flowpkg.json's own cap is 4 MB).
    static let maximumSize = 1 << 20

    /// What an evaluation may use: past any of these it stops, with FP106, and validation goes on.
    static let limits = LuaSandbox.defaultLimits

    /// Runs the configuration's text and returns the global names it declares.
    /// `measured`, when given, sees the state once the evaluation ended (its peak memory and
    /// instruction count), before it is closed.
    static func evaluate(
        _ source: [UInt8], chunkName: String, limits: LuaLimits = limits, measured: ((LuaState) -> Void)? = nil
    ) throws -> [String] {
        names(in: try options(source, chunkName: chunkName, limits: limits, measured: measured))
    }

    /// The global names evaluated options declare, `std:` sets expanded.
    static func names(in options: [String: LuaValue]) -> [String] {
        var names: [String] = []
        for text in LuacheckEntries(options: options).list {
            if text.hasPrefix("std:") {
                names += standardSets[String(text.dropFirst(4))] ?? []
            } else {
                names.append(text)
            }
        }
        return names
    }

    /// The configuration's options, as luacheck reads them: the globals it sets, updated with
    /// the table it returns, if any (`return { std = "min" }`).
    static func options(
        _ source: [UInt8], chunkName: String, limits: LuaLimits = limits, measured: ((LuaState) -> Void)? = nil
    ) throws -> [String: LuaValue] {
        let sandbox = LuaSandbox(
            limits: limits, maximumSize: maximumSize, autovivifiedTables: ["files"], presetTables: ["stds"])
        let result = try sandbox.evaluate(source, name: chunkName, measured: measured)
        var options = result.globals
        if case .table(let returned) = result.returned { options.merge(returned) { $1 } }
        return options
    }

    /// Global names of luacheck's built-in sets, beyond Lua 5.4's own (which every project has).
    static let standardSets: [String: [String]] = LuacheckStandards.sets.mapValues {
        $0.subtracting(LuacheckStandards.lua54).sorted()
    }
}

/// The globals a folder's `.luacheckrc` declares, for `flowpkg init` (validate reads the file itself).
public enum LuacheckGlobals {
    /// The declared names, empty when there is no `.luacheckrc` or it cannot be evaluated.
    public static func names(inFolder folder: URL) -> [String] {
        let standard = Set(LuacheckConfig.standardSets.values.joined())
        return LuacheckConfig.globals(inProject: folder).names.filter { !standard.contains($0) }
    }
}
