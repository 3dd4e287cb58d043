import FlowHTTP
import FlowLiveProtocol
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DebugAdapterSession {
    /// `launch`: runs `flowpkg run PROGRAM -- ARGS` (a lone `.lua` file: `flowpkg run FILE.lua
    /// ARGS`, as lua5.4 runs it) as a child with a private debug channel
    /// (a loopback port and a random token in its environment), answers once its engine has
    /// connected, then asks for the configuration (`initialized`).
    func launch(_ seq: Int, _ request: LaunchRequest) {
        let name = LaunchRequest.command
        let base = state.withLock { $0.sourceMap.workingDirectory }
        let directory = request.cwd.map { Self.absolute($0, from: base) } ?? base
        guard let given = request.program, !given.isEmpty else {
            return respondError(
                requestSeq: seq, command: name,
                message: "launch needs 'program': a project folder (holding flowpkg.json), a .luapkg or a .lua file")
        }
        let program = Self.absolute(given, from: directory)
        var isDirectory = false
        let exists = FileManager.default.fileExists(atPath: program, isDirectory: &isDirectory)
        let isProject = exists && isDirectory && FileManager.default.fileExists(atPath: program + "/flowpkg.json")
        let isScript = exists && !isDirectory && program.hasSuffix(".lua")
        guard isProject || isScript || (exists && !isDirectory && program.hasSuffix(".luapkg")) else {
            return respondError(
                requestSeq: seq, command: name,
                message: "\(given): not a project folder (holding flowpkg.json), a .luapkg or a .lua file")
        }
        // A script is named as Lua will name its chunk: from the working directory when inside
        // it, as the editor's files are (`Sources/tool.lua`), so breakpoints match by path.
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        let scriptPath = program.hasPrefix(prefix) ? String(program.dropFirst(prefix.count)) : program
        let arguments =
            isScript ? ["run", scriptPath] + (request.args ?? []) : ["run", program, "--"] + (request.args ?? [])
        let listener: PlainSocket
        let address: String
        do {
            (listener, address) = try EngineConnection.listen()
        } catch {
            return respondError(requestSeq: seq, command: name, message: "cannot open the debug channel: \(error)")
        }
        let token = Self.randomToken()
        let process: ChildProcess
        do {
            // The token in the environment only: a command line is readable by every local user.
            let command = ChildCommand(
                executable, arguments, environment: [DebugProtocol.channelVariable: address],
                secrets: [DebugProtocol.tokenVariable: token], workingDirectory: directory,
                output: .stream { [weak self] bytes, isError in
                    self?.send(
                        event: "output",
                        OutputEventBody(
                            category: isError ? "stderr" : "stdout", output: String(decoding: bytes, as: UTF8.self)))
                })
            process = try ChildProcess.start(command) { [weak self] status in
                self?.send(event: "exited", ExitedEventBody(exitCode: status))
                self?.send(event: "terminated", Empty())
            }
        } catch {
            return respondError(requestSeq: seq, command: name, message: "\(error)")
        }
        state.withLock { state in
            state.process = process
            state.stopOnEntry = request.stopOnEntry ?? false
            state.sourceMap = SourceMap(workingDirectory: directory)
            state.projectRoot = isProject ? URL(fileURLWithPath: program).standardizedFileURL.path : nil
        }
        // Wait for the program to connect, or to end before it could (a project with errors).
        let deadline = Date() + connectionTimeout
        var connection: EngineConnection?
        while connection == nil, Date() < deadline, process.exitStatus == nil {
            connection = EngineConnection.accept(on: listener, token: token, wait: 0.2)
        }
        guard let connection else {
            process.terminate()
            return respondError(
                requestSeq: seq, command: name,
                message: "\(given) ended before its debugger could connect (its output says why)")
        }
        state.withLock { $0.connection = connection }
        connection.start(onMessage: { [weak self] in self?.engineSent($0) }, onClose: {})
        respond(seq, name, Empty())
        // Which process the editor's session owns (the adapter ends it before ending itself).
        send(event: "process", ProcessEventBody(name: given, systemProcessId: process.processID))
        send(event: "initialized", Empty())
    }

    /// `attach`: to a program following `flowpkg serve` (`run --live`, or a host with the
    /// development monitor), through the server's debug relay and its token.
    func attach(_ seq: Int, _ request: AttachRequest) {
        let name = AttachRequest.command
        guard let serve = request.serve.flatMap({ URL(string: $0) }), let token = request.token, !token.isEmpty else {
            return respondError(
                requestSeq: seq, command: name,
                message: "attach needs 'serve' (flowpkg serve's URL, such as http://127.0.0.1:7315) and 'token'")
        }
        let attached = EngineConnection.attach(
            serve: serve, token: token, program: request.program?.query,
            onMessage: { [weak self] in self?.engineSent($0) },
            onClose: { [weak self] in self?.send(event: "terminated", Empty()) })
        switch attached {
        case .failure(let failure):
            respondError(requestSeq: seq, command: name, message: failure.description)
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
            respond(seq, name, Empty())
            send(event: "initialized", Empty())
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
