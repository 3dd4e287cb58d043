import FlowTestSupport
import Foundation
import ContentLengthFraming
import LanguageServerProtocol
import Testing

@testable import FlowLanguageServer

/// A client driving a `LanguageServer` over real pipes with real framing, as an editor would;
/// the client side reads and writes plain JSON objects, independent of the server's types.
final class ServerConnection: @unchecked Sendable {
    private let toServer = Pipe()
    private let fromServer = Pipe()
    private let reader: MessageReader
    private let writer: MessageWriter
    private let finished = DispatchSemaphore(value: 0)
    private var ending: LanguageServer.Ending?
    private var nextID = 1
    /// Notifications read while waiting for something else, oldest first.
    private var backlog: [[String: Any]] = []
    /// The server itself, to look at what it keeps (only after a response, which orders the
    /// server's earlier work before the look).
    private(set) var server: LanguageServer?

    init(options: LanguageServerOptions = LanguageServerOptions(concurrency: 2)) {
        signal(SIGPIPE, SIG_IGN)
        reader = MessageReader(descriptor: fromServer.fileHandleForReading.fileDescriptor)
        writer = MessageWriter(descriptor: toServer.fileHandleForWriting.fileDescriptor)
        let input = toServer.fileHandleForReading.fileDescriptor
        let output = fromServer.fileHandleForWriting.fileDescriptor
        let thread = Thread { [self] in
            let server = LanguageServer(input: input, output: output, options: options)
            self.server = server
            ending = server.run()
            try? fromServer.fileHandleForWriting.close()
            finished.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
    }

    /// Sends `initialize` for `root` and `initialized`; returns initialize's result.
    @discardableResult
    func initialize(root: URL, encodings: [String]? = nil, watchesFiles: Bool = false) throws -> [String: Any] {
        var capabilities: [String: Any] = [:]
        if let encodings { capabilities["general"] = ["positionEncodings": encodings] }
        if watchesFiles { capabilities["workspace"] = ["didChangeWatchedFiles": ["dynamicRegistration": true]] }
        let response = try request(
            "initialize", ["processId": NSNull(), "rootUri": root.absoluteString, "capabilities": capabilities])
        notify("initialized", [:])
        return try #require(response["result"] as? [String: Any])
    }

    func send(_ object: [String: Any]) {
        let body = try! JSONSerialization.data(withJSONObject: object)
        writer.send(body: [UInt8](body))
    }

    func sendRaw(_ body: [UInt8]) { writer.send(body: body) }

    func sendBytes(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(toServer.fileHandleForWriting.fileDescriptor, $0.baseAddress!, $0.count) }
    }

    func notify(_ method: String, _ params: [String: Any]) {
        send(["jsonrpc": "2.0", "method": method, "params": params])
    }

    /// Sends a request and returns its response (notifications read meanwhile are kept).
    func request(_ method: String, _ params: Any) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        send(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
        return try response(id: id)
    }

    /// The response with `id` (a number), or with a null id when `id` is nil.
    func response(id: Int?) throws -> [String: Any] {
        while true {
            let message = try read()
            if message["method"] == nil {
                if let id, (message["id"] as? Int) == id { return message }
                if id == nil, message["id"] is NSNull { return message }
            } else {
                backlog.append(message)
            }
        }
    }

    /// The next notification `method` whose params satisfy `matches`.
    func notification(_ method: String, where matches: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any]
    {
        if let index = backlog.firstIndex(where: {
            $0["method"] as? String == method && matches($0["params"] as? [String: Any] ?? [:])
        }) {
            return backlog.remove(at: index)["params"] as? [String: Any] ?? [:]
        }
        while true {
            let message = try read()
            if message["method"] as? String == method, let params = message["params"] as? [String: Any], matches(params)
            {
                return params
            }
            backlog.append(message)
        }
    }

    /// The next diagnostics published for `uri` that satisfy `matches`.
    func diagnostics(for uri: URL, where matches: ([[String: Any]]) -> Bool = { _ in true }) throws -> [[String: Any]] {
        let params = try notification("textDocument/publishDiagnostics") {
            ($0["uri"] as? String) == uri.absoluteString && matches($0["diagnostics"] as? [[String: Any]] ?? [])
        }
        return params["diagnostics"] as? [[String: Any]] ?? []
    }

    /// Every notification received and not yet taken.
    var pendingNotifications: [[String: Any]] { backlog }

    struct Timeout: Error {}

    /// One message from the server; a server silent for 60 s fails the test instead of hanging it.
    private func read() throws -> [String: Any] {
        var descriptor = pollfd(fd: fromServer.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        guard reader.hasBufferedInput || poll(&descriptor, 1, 60_000) > 0 else { throw Timeout() }
        switch reader.next() {
        case .message(let body):
            return try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        case .badFrame(let reason):
            Issue.record("bad frame from the server: \(reason)")
            throw Timeout()
        case .tooLarge(let length, _):
            Issue.record("a message of \(length) bytes from the server")
            throw Timeout()
        case .endOfInput:
            throw Timeout()
        }
    }

    /// Closes the server's input and returns why it stopped.
    func closeInput() -> LanguageServer.Ending? {
        try? toServer.fileHandleForWriting.close()
        return waitForEnd()
    }

    /// Waits for the server to return from `run()`.
    func waitForEnd() -> LanguageServer.Ending? {
        guard finished.wait(timeout: .now() + 60) == .success else { return nil }
        return ending
    }
}

/// A small project in a temporary folder: two modules, a resource, a global defined in one
/// module and read in the other.
struct SampleProject {
    let root: URL

    init(environment: String = "codeflow-ios") throws {
        root =
            try Scratch("lsp").url
            .standardizedFileURL
        try write(
            "flowpkg.json",
            """
            {"name": "Demo", "identifier": "com.example.demo", "version": "1.0.0",
             "startModule": "Main", "environment": "\(environment)"}
            """)
        try write("Sources/Main.lua", Self.main)
        try write(
            "Sources/app/util.lua",
            """
            local M = {}
            _G.helperValue = 42
            function M.greet(name) return "hi " .. name end
            return M

            """)
        try write("Resources/img/logo.png", String(repeating: "x", count: 1234))
    }

    static let main = """
        local util = require "app.util"
        local logo = getResource("img/logo", "png")
        print(util.greet("x"), helperValue, logo)

        """

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

extension ServerConnection {
    func open(_ url: URL, _ text: String, version: Int = 1) {
        notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": url.absoluteString, "languageId": "lua", "version": version, "text": text]])
    }

    func change(_ url: URL, version: Int, _ changes: [[String: Any]]) {
        notify(
            "textDocument/didChange",
            ["textDocument": ["uri": url.absoluteString, "version": version], "contentChanges": changes])
    }

    func position(_ url: URL, line: Int, character: Int) -> [String: Any] {
        ["textDocument": ["uri": url.absoluteString], "position": ["line": line, "character": character]]
    }
}

func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> [String: Any] {
    ["start": ["line": startLine, "character": startCharacter], "end": ["line": endLine, "character": endCharacter]]
}
