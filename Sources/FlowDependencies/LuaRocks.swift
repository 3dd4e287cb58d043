import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// LuaRocks, driven as a tool: flowpkg never resolves versions itself. Every call names Lua 5.4,
/// a private tree and the servers (`--lua-version 5.4 --tree … --only-server …`), and runs
/// through FlowSupport's `ChildProcess` with a deadline (`FLOWPKG_LUAROCKS_TIMEOUT` seconds,
/// 600 unless set: a rocks server's manifest is Lua that luarocks runs, and one that never
/// ends must not hang flowpkg), so a failure becomes a diagnostic naming the command.
public struct LuaRocks: Sendable {
    /// The `luarocks` program.
    public var executable: String
    /// Where rocks come from: URLs, or folders made into servers by `luarocks-admin make-manifest`.
    public var servers: [String]

    /// The luarocks on `PATH` (or `$FLOWPKG_LUAROCKS`), serving from `servers`.
    public static func locate(servers: [String]) throws(DependencyError) -> LuaRocks {
        let environment = ProcessInfo.processInfo.environment
        let name = environment["FLOWPKG_LUAROCKS"].flatMap { $0.isEmpty ? nil : $0 } ?? "luarocks"
        guard let executable = ChildCommand.find(name) else { throw .luarocksMissing }
        let timeout = environment["FLOWPKG_LUAROCKS_TIMEOUT"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
        return LuaRocks(executable: executable, servers: servers, timeout: timeout ?? defaultTimeout)
    }

    /// Seconds one luarocks run may take (`FLOWPKG_LUAROCKS_TIMEOUT`).
    public var timeout: Double = LuaRocks.defaultTimeout
    public static let defaultTimeout: Double = 600

    public init(executable: String, servers: [String], timeout: Double = LuaRocks.defaultTimeout) {
        self.executable = executable
        self.servers = servers
        self.timeout = timeout
    }

    /// The arguments every call starts with.
    func commonArguments(tree: String) -> [String] {
        var arguments = ["--lua-version", "5.4", "--tree", tree]
        if servers.count == 1 { arguments += ["--only-server", servers[0]] }
        return arguments
    }

    /// A configuration of flowpkg's own: every server (when there are several), the rocks the
    /// host provides (`rocks_provided`), no compiler at all, so a rock with C code fails before
    /// anything is compiled, and the builtin build type only (`none` needs no back end), so a
    /// rock built by a command, make, cmake or a back end of its own fails before its build runs.
    /// Its manifest cache is the run's own (`local_cache` in `scratch`): LuaRocks' shared one
    /// would hide a rock added to a server since the last look for a minute.
    func configuration(provided: [String: String], scratch: String) -> String {
        var text = "-- written by flowpkg for one luarocks run\n"
        text += "local_cache = " + Self.luaString(scratch + "/luarocks-cache") + "\n"
        text += "rocks_servers = { " + servers.map(Self.luaString).joined(separator: ", ") + " }\n"
        let refuser = Self.luaString(LuaRocks.compilerRefusal)
        text += "accepted_build_types = { \"builtin\" }\n"
        text += "variables = { CC = \(refuser), LD = \(refuser), MAKE = \(refuser), CMAKE = \(refuser) }\n"
        text += "rocks_provided = { "
        text += provided.sorted { $0.key < $1.key }.map { "[\(Self.luaString($0.key))] = \(Self.luaString($0.value))" }
            .joined(separator: ", ")
        text += " }\n"
        return text
    }

    /// What `CC` and the build tools are set to: a program that does not exist, so no compiler runs.
    static let compilerRefusal = "/flowpkg-refuses-to-compile-C-code"

    /// With a gate, no rock is built before flowpkg has read its rockspec (`RockspecGate`).
    var gate: RockspecGate? = nil

    /// Runs `luarocks ARGUMENTS` with flowpkg's configuration, in `folder` (nil: flowpkg's own).
    func run(
        _ arguments: [String], tree: String, provided: [String: String] = [:], scratch: String, in folder: String? = nil
    ) throws(DependencyError) -> ChildOutput {
        let config = scratch + "/luarocks-config.lua"
        do {
            try AtomicOutput.write(
                Array(configuration(provided: provided, scratch: scratch).utf8), to: config, creatingFolders: true)
        } catch {
            throw .io(error)
        }
        var environment: [String: String?] = [
            "LUAROCKS_CONFIG": config, "LUA_PATH": nil, "LUA_CPATH": nil, "LUA_INIT": nil, "FLOWPKG_ROCKSPECS": nil,
        ]
        if let gate { environment.merge(try gate.environment()) { _, gated in gated } }
        let command = ChildCommand(
            executable, commonArguments(tree: tree) + arguments, environment: environment, workingDirectory: folder)
        do {
            return try ChildProcess.run(command, deadline: timeout)
        } catch {
            switch error {
            case .timedOut(_, let seconds):
                throw .commandStopped(
                    command: command.commandLine,
                    reason: "it did not finish within \(Int(seconds)) seconds; a rocks server whose manifest never "
                        + "ends, or one that never answers, would hold it forever (FLOWPKG_LUAROCKS_TIMEOUT sets the "
                        + "seconds it may take)")
            case .interrupted(_, let signalNumber):
                throw .commandStopped(
                    command: command.commandLine, reason: "flowpkg received signal \(signalNumber) while it ran")
            default: throw .commandFailed(command: command.commandLine, output: "\(error)")
            }
        }
    }

    /// The versions of `name` the servers have, newest first (`luarocks search --porcelain`).
    func versions(of name: String, scratch: String) throws(DependencyError) -> [String] {
        let output = try run(["search", "--porcelain", name], tree: scratch + "/search-tree", scratch: scratch)
        var versions: [String] = []
        for line in output.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count >= 2, fields[0] == name, !versions.contains(String(fields[1])) {
                versions.append(String(fields[1]))
            }
        }
        return versions
    }

    /// Fetches `name`'s rock (or, with `rockspec`, its rockspec) at `version` into `folder`,
    /// returning the file's path.
    func download(_ name: String, version: String, rockspec: Bool = false, into folder: String, scratch: String)
        throws(DependencyError) -> String
    {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let output = try run(
            ["download"] + (rockspec ? ["--rockspec"] : []) + [name, version], tree: scratch + "/download-tree",
            scratch: scratch, in: folder)
        guard output.succeeded else { throw .commandFailed(command: output.commandLine, output: output.combined) }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let prefix = "\(name)-\(version)."
        guard
            let file = files.sorted().first(where: {
                $0.hasPrefix(prefix) && ($0.hasSuffix(".rock") || $0.hasSuffix(".rockspec"))
            })
        else {
            throw .commandFailed(
                command: output.commandLine, output: "it downloaded no \(prefix)* file\n" + output.combined)
        }
        return folder + "/" + file
    }

    /// The rockspec of `name` at `version`, as `luarocks unpack` finds it in the rock (a source
    /// rock holds no other copy a server lists).
    func rockspec(_ name: String, version: String, scratch: String) throws(DependencyError) -> String {
        let folder = scratch + "/unpacked-\(name)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let output = try run(["unpack", name, version], tree: scratch + "/download-tree", scratch: scratch, in: folder)
        let path = folder + "/\(name)-\(version)/\(name)-\(version).rockspec"
        guard output.succeeded, let data = FileManager.default.contents(atPath: path) else {
            throw .commandFailed(command: output.commandLine, output: output.combined)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// `text` as a Lua string literal (what the config and the resolution rockspec hold).
    static func luaString(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }
}
