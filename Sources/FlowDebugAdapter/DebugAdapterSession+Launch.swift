import FlowHTTP
import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DebugAdapterSession {
    /// What a `launch` runs: the program as given and made absolute, the folder it runs in,
    /// and `flowpkg`'s arguments.
    struct LaunchTarget {
        var given: String
        var program: String
        var directory: String
        var arguments: [String]
        /// A project's folder, outside which no breakpoint can be set.
        var projectRoot: String?
    }

    /// `launch`: runs `flowpkg run PROGRAM -- ARGS` (a lone `.lua` file: `flowpkg run FILE.lua
    /// ARGS`, as lua5.4 runs it; a spec file: `flowpkg test PROJECT FILE`) as a child with a private debug channel
    /// (a loopback port and a random token in its environment), answers once its engine has
    /// connected, then asks for the configuration (`initialized`).
    func launch(_ request: LaunchRequest, _ reply: Reply<LaunchRequest>) {
        let target: LaunchTarget
        switch launchTarget(request) {
        case .success(let found): target = found
        case .failure(let refusal): return reply.fail(refusal.message)
        }
        let listener: PlainSocket
        let address: String
        do {
            (listener, address) = try EngineConnection.listen()
        } catch {
            return reply.fail("cannot open the debug channel: \(error)")
        }
        let token = Self.randomToken()
        let process: ChildProcess
        do {
            process = try startProgram(target, channel: address, token: token)
        } catch {
            return reply.fail("\(error)")
        }
        state.withLock { state in
            state.process = process
            state.stopOnEntry = request.stopOnEntry ?? false
            state.sourceMap = SourceMap(workingDirectory: target.directory)
            state.projectRoot = target.projectRoot
        }
        // Wait for the program to connect, or to end before it could (a project with errors).
        let deadline = Date() + connectionTimeout
        var connection: EngineConnection?
        while connection == nil, Date() < deadline, process.exitStatus == nil {
            connection = EngineConnection.accept(on: listener, token: token, wait: 0.2)
        }
        guard let connection else {
            process.terminate()
            return reply.fail("\(target.given) ended before its debugger could connect (its output says why)")
        }
        state.withLock { $0.connection = connection }
        connection.start(onMessage: { [weak self] in self?.engineSent($0) }, onClose: {})
        reply.succeed(Empty())
        // Which process the editor's session owns (the adapter ends it before ending itself).
        send(ProcessEvent(name: target.given, systemProcessId: process.processID))
        send(InitializedEvent())
    }

    struct LaunchRefusal: Error {
        var message: String
    }

    /// The program a `launch` names, checked, and how `flowpkg` runs it.
    func launchTarget(_ request: LaunchRequest) -> Result<LaunchTarget, LaunchRefusal> {
        let base = state.withLock { $0.sourceMap.workingDirectory }
        let directory = request.cwd.map { Self.absolute($0, from: base) } ?? base
        guard let given = request.program, !given.isEmpty else {
            return .failure(
                LaunchRefusal(
                    message:
                        "launch needs 'program': a project folder (holding flowpkg.json), a .luapkg or a .lua file"))
        }
        let program = Self.absolute(given, from: directory)
        var isDirectory = false
        let exists = FileManager.default.fileExists(atPath: program, isDirectory: &isDirectory)
        let isProject = exists && isDirectory && FileManager.default.fileExists(atPath: program + "/flowpkg.json")
        let isScript = exists && !isDirectory && program.hasSuffix(".lua")
        guard isProject || isScript || (exists && !isDirectory && program.hasSuffix(".luapkg")) else {
            return .failure(
                LaunchRefusal(
                    message: "\(given): not a project folder (holding flowpkg.json), a .luapkg or a .lua file"))
        }
        if isScript, let spec = Self.specLaunch(program, given: given) { return .success(spec) }
        // A script is named as Lua will name its chunk: from the working directory when inside
        // it, as the editor's files are (`Sources/tool.lua`), so breakpoints match by path.
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let scriptPath = program.hasPrefix(prefix) ? String(program.dropFirst(prefix.count)) : program
        let arguments =
            isScript ? ["run", scriptPath] + (request.args ?? []) : ["run", program, "--"] + (request.args ?? [])
        return .success(
            LaunchTarget(
                given: given, program: program, directory: directory, arguments: arguments,
                projectRoot: isProject ? program : nil))
    }

    /// A spec file (`*_spec.lua`) in a project: run by `flowpkg test PROJECT FILE` in the
    /// project folder, as `flowpkg test` runs it, its chunk named by its path in the project.
    static func specLaunch(_ program: String, given: String) -> LaunchTarget? {
        guard program.hasSuffix("_spec.lua") else { return nil }
        var folder = URL(fileURLWithPath: program).deletingLastPathComponent()
        while folder.path != "/", !folder.path.isEmpty {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("flowpkg.json").path) {
                let root = folder.standardizedFileURL.path
                let file = String(program.dropFirst(root.count + 1))
                return LaunchTarget(
                    given: given, program: program, directory: root, arguments: ["test", root, file], projectRoot: root)
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Starts `flowpkg` for `target`, its output and its end reported as events.
    private func startProgram(_ target: LaunchTarget, channel address: String, token: String) throws -> ChildProcess {
        // The token in the environment only: a command line is readable by every local user.
        let command = ChildCommand(
            executable, target.arguments, environment: [DebugProtocol.channelVariable: address],
            secrets: [DebugProtocol.tokenVariable: token], workingDirectory: target.directory,
            output: .stream { [weak self] bytes, isError in
                self?.send(
                    OutputEvent(category: isError ? "stderr" : "stdout", output: String(decoding: bytes, as: UTF8.self))
                )
            })
        return try ChildProcess.start(command) { [weak self] status in
            self?.send(ExitedEvent(exitCode: status))
            self?.send(TerminatedEvent())
        }
    }

    /// `attach`: to a program following `flowpkg serve` (`run --live`, or a host with the
    /// development monitor), through the server's debug relay and its token.
    func attach(_ request: AttachRequest, _ reply: Reply<AttachRequest>) {
        guard let serve = request.serve.flatMap({ URL(string: $0) }), let token = request.token, !token.isEmpty else {
            return reply.fail(
                "attach needs 'serve' (flowpkg serve's URL, such as http://127.0.0.1:7315) and 'token'")
        }
        let attached = EngineConnection.attach(
            serve: serve, token: token, program: request.program?.query,
            onMessage: { [weak self] in self?.engineSent($0) },
            onClose: { [weak self] in self?.send(TerminatedEvent()) })
        switch attached {
        case .failure(let failure):
            reply.fail(failure.description)
        case .success(let (connection, _)):
            state.withLock { state in
                state.connection = connection
                state.projectRoot = nil
                // A live source names chunks by their path in the project folder.
                if let cwd = request.cwd {
                    state.sourceMap = SourceMap(
                        workingDirectory: Self.absolute(cwd, from: state.sourceMap.workingDirectory))
                }
            }
            reply.succeed(Empty())
            send(InitializedEvent())
        }
    }

    static func absolute(_ path: String, from directory: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: directory + "/" + path)
        return url.standardizedFileURL.path
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt64, radix: 36) }.joined()
    }
}
