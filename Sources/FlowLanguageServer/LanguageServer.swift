import FlowDependencies
import FlowPackage
import FlowProject
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import ContentLengthFraming
import LanguageServerProtocol

/// `flowpkg lsp`: a Language Server Protocol server speaking JSON-RPC over two file
/// descriptors (stdin and stdout for an editor, pipes for a test). It validates the project of
/// the workspace as `flowpkg validate` does, keeps the findings current as buffers change, and
/// answers go to definition, completion and hover.
///
/// Nothing a client sends stops it except `exit` or the end of its input: a frame or JSON it
/// cannot read gets a parse error (-32700), an unknown request -32601, an unknown notification
/// is ignored. Runs on the calling thread, which needs a roomy stack (the Lua parser recurses).
public final class LanguageServer {
    /// Why `run()` returned.
    public enum Ending: Equatable, Sendable {
        /// The client sent `exit`; `afterShutdown` false means it did not ask for `shutdown` first
        /// (the protocol then wants exit status 1).
        case exit(afterShutdown: Bool)
        /// The input ended: the client went away.
        case endOfInput
        /// Writing failed: the client's end of the output is closed.
        case outputClosed
    }

    enum State { case starting, running, shutDown }

    private let reader: MessageReader
    let writer: MessageWriter
    private let decoder = JSONDecoder()
    var state = State.starting
    private(set) var encoding = PositionEncoding.utf16
    /// The open documents of the project, by file path, within `limits`.
    var documents: [String: OpenDocument] = [:]
    var limits = DocumentLimits()
    /// Documents edited since their text was last handed to the session, oldest first: a burst
    /// of edits is checked once, when no more input waits or a request needs it.
    var pendingEdits: [String] = []
    /// Documents handed to the session whose findings are not yet published: a request is
    /// answered first, and they are published once no more input waits.
    var unpublishedEdits: [String] = []
    /// Computes and sends the findings on a thread of its own.
    let publisher: DiagnosticsPublisher
    var workspace: Workspace?
    private var searchedFrom: Set<String> = []
    private var watchesFiles = false
    private let options: LanguageServerOptions
    /// What each method the server knows is routed to (`registerRoutes()`).
    private var routes = Routes()

    public init(input: Int32, output: Int32, options: LanguageServerOptions = LanguageServerOptions()) {
        reader = MessageReader(descriptor: input, maximumLength: DocumentLimits().maximumFrameBytes)
        writer = MessageWriter(descriptor: output)
        publisher = DiagnosticsPublisher(writer: writer)
        self.options = options
        registerRoutes()
    }

    /// Serves until the client sends `exit`, its input ends, or the output closes.
    public func run() -> Ending {
        defer { publisher.stop() }
        while true {
            if writer.isClosed { return .outputClosed }
            if !pendingEdits.isEmpty || !unpublishedEdits.isEmpty, !reader.hasPendingInput { publishPendingEdits() }
            switch reader.next() {
            case .endOfInput:
                return .endOfInput
            case .badFrame(let reason):
                writer.send(Response(id: nil, error: ResponseError(code: ErrorCode.parseError, message: reason)))
            case .tooLarge(let length, let start):
                refuseLarge(length: length, start: start)
            case .message(let body):
                if let ending = handle(body) { return ending }
            }
        }
    }

    // MARK: Dispatch

    private func handle(_ body: [UInt8]) -> Ending? {
        let data = Data(body)
        let header: MessageHeader
        do {
            header = try decoder.decode(MessageHeader.self, from: data)
        } catch {
            let isJSON = (try? decoder.decode(AnyJSONValue.self, from: data)) != nil
            writer.send(
                Response(
                    id: nil,
                    error: isJSON
                        ? ResponseError(code: ErrorCode.invalidRequest, message: "a message must be a JSON-RPC object")
                        : ResponseError(code: ErrorCode.parseError, message: "the message is not valid JSON")))
            return nil
        }
        guard let method = header.method else { return nil }  // a response to us: none is awaited
        let id = header.id
        if method == ExitNotification.method { return .exit(afterShutdown: state == .shutDown) }
        switch state {
        case .starting where method == InitializeParams.method:
            reply(id) { try self.initialize(self.params(data)) }
            // Nothing but log messages may come before initialize's result.
            publish(version: nil, path: nil)
            return nil
        case .starting, .shutDown:
            if let id {
                let error =
                    state == .starting
                    ? ResponseError(code: ErrorCode.serverNotInitialized, message: "the server is not initialized yet")
                    : ResponseError(code: ErrorCode.invalidRequest, message: "the server is shut down")
                writer.send(Response(id: id, error: error))
            }
            return nil
        case .running:
            break
        }
        guard let id else {
            // A notification gets no answer, even when its params are wrong: it is dropped.
            routes.notifications[method]?(data)
            return nil
        }
        // A request is answered from the buffers as they are now; their findings are published after.
        applyPendingEdits()
        if let route = routes.requests[method] {
            route(id, data)
        } else {
            writer.send(
                Response(
                    id: id, error: ResponseError(code: ErrorCode.methodNotFound, message: "unknown method '\(method)'"))
            )
        }
        return nil
    }

    /// Answers requests of type `Request` with `body`'s result, or the error it throws.
    func on<Request: RequestType>(_: Request.Type, _ body: @escaping (Request) throws -> Request.Response) {
        routes.requests[Request.method] = { [unowned self] id, data in
            reply(id) { try body(self.params(data)) }
        }
    }

    /// Hands notifications of type `Notification` to `body`; one whose params do not decode is dropped.
    func on<Notification: NotificationType>(_: Notification.Type, _ body: @escaping (Notification) -> Void) {
        routes.notifications[Notification.method] = { [unowned self] data in
            if let params: Notification = try? params(data) { body(params) }
        }
    }

    func sendRegistrationOfWatchedFiles() {
        guard watchesFiles else { return }
        // Files changed outside the editor (a checkout, a generator): the client tells.
        writer.send(
            OutgoingMessage(
                RegistrationParams(watching: ["**/*.lua", "**/flowpkg.json", "**/Resources/**"]),
                id: .string("flowpkg-watch")))
    }

    private func params<Params: IncomingMethod>(_ data: Data) throws -> Params {
        do {
            return try Params.decode(message: data, using: decoder)
        } catch {
            throw ResponseError(code: ErrorCode.invalidParams, message: "invalid params: \(error)")
        }
    }

    func reply<Result: Encodable>(_ id: RequestID?, _ body: () throws -> Result) {
        do {
            writer.send(Response(id: id, result: try body()))
        } catch let error as ResponseError {
            writer.send(Response(id: id, error: error))
        } catch {
            writer.send(Response(id: id, error: ResponseError(code: ErrorCode.internalError, message: "\(error)")))
        }
    }

    func log(_ message: String, type: Int = 3) {
        writer.send(OutgoingMessage(LogMessageNotification(type: type, message: message)))
    }

    func show(_ message: String, type: Int) {
        writer.send(OutgoingMessage(ShowMessageNotification(type: type, message: message)))
    }

    // MARK: Lifecycle

    func initialize(_ params: InitializeParams) throws -> InitializeResult {
        watchesFiles = params.capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration == true
        if params.capabilities?.general?.positionEncodings?.contains(PositionEncoding.utf8.rawValue) == true {
            encoding = .utf8
        }
        var folders = (params.workspaceFolders ?? []).compactMap { Self.path(ofURI: $0.uri) }
        if let uri = params.rootUri, let path = Self.path(ofURI: uri) { folders.append(path) }
        if let path = params.rootPath { folders.append(path) }
        for folder in folders {
            if let project = Self.nearestProject(from: folder) {
                openProject(at: project, publishing: false)
                break
            }
        }
        state = .running
        if workspace == nil, !folders.isEmpty {
            log("no flowpkg.json in \(folders[0]) or above it: open a file of a project to check it", type: 2)
        }
        var capabilities = ServerCapabilities(
            positionEncoding: encoding.rawValue, triggerCharacters: ["\"", "'", ".", "/", "(", ","])
        if params.initializationOptions?.inlayHints == true { capabilities.inlayHintProvider = true }
        return InitializeResult(capabilities: capabilities, name: "flowpkg", version: ToolVersion.current)
    }

    private func openProject(at folder: String, publishing: Bool = true) {
        var validation = ValidationOptions()
        validation.concurrency = options.concurrency
        validation.dependencies = options.dependencies
        let session = ValidationSession(projectAt: URL(fileURLWithPath: folder), options: validation)
        let workspace = Workspace(session: session, encoding: encoding)
        self.workspace = workspace
        for (path, document) in documents where workspace.contains(path) {
            workspace.session.setBuffer(document.text.bytes, forPath: path)
        }
        if publishing { publish(version: nil, path: nil) }
    }

    private func reloadProject() {
        guard let workspace else { return }
        workspace.session.reload()
        for (path, document) in documents where workspace.session.analyses(path: path) {
            workspace.session.setBuffer(document.text.bytes, forPath: path)
        }
        publish(version: nil, path: nil)
    }

    // MARK: Documents

    func didOpen(_ params: DidOpenTextDocumentParams) {
        guard let path = Self.path(ofURI: params.textDocument.uri) else { return }
        let document = OpenDocument(
            uri: params.textDocument.uri, version: params.textDocument.version,
            text: DocumentText(params.textDocument.text))
        if let refusal = limits.refusal(size: document.text.bytes.count, others: storedBytes(except: path)) {
            forget(path, because: refusal)
            return
        }
        documents[path] = document
        if workspace == nil {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            if searchedFrom.insert(folder).inserted, let project = Self.nearestProject(from: folder) {
                openProject(at: project)
                return
            }
        }
        guard let workspace else {
            documents[path] = nil  // in no project: nothing checks it, so its text is not kept
            return
        }
        guard workspace.contains(path) else {
            documents[path] = nil
            log(
                "\(path) is outside the project at \(workspace.root): flowpkg checks the files of its project only",
                type: 3)
            return
        }
        if workspace.session.setBuffer(document.text.bytes, forPath: path) {
            publish(version: document.version, path: path)
        } else if path.hasSuffix(".lua"), FileManager.default.fileExists(atPath: path) {
            reloadProject()  // a module discovery has not seen yet
        }
    }

    func didChange(_ params: DidChangeTextDocumentParams) {
        guard let path = Self.path(ofURI: params.textDocument.uri), var document = documents[path] else { return }
        for change in params.contentChanges { document.text.apply(change, encoding: encoding) }
        document.version = params.textDocument.version
        if let refusal = limits.refusal(size: document.text.bytes.count, others: storedBytes(except: path)) {
            forget(path, because: refusal)
            if let workspace, workspace.session.setBuffer(nil, forPath: path) { publish(version: nil, path: nil) }
            return
        }
        documents[path] = document
        if !pendingEdits.contains(path) { pendingEdits.append(path) }
    }

    /// Bytes the kept buffers take, but for `path`'s.
    private func storedBytes(except path: String) -> Int {
        documents.reduce(0) { $0 + ($1.key == path ? 0 : $1.value.text.bytes.count) }
    }

    /// Keeps no text for `path`: its saved content counts, as for a file not open.
    func forget(_ path: String, because reason: String) {
        documents[path] = nil
        pendingEdits.removeAll { $0 == path }
        unpublishedEdits.removeAll { $0 == path }
        log("\(path): its unsaved text is not checked: \(reason); its saved content is", type: 2)
    }

    func didClose(_ params: DidCloseTextDocumentParams) {
        guard let path = Self.path(ofURI: params.textDocument.uri), documents.removeValue(forKey: path) != nil else {
            return
        }
        pendingEdits.removeAll { $0 == path }
        unpublishedEdits.removeAll { $0 == path }
        // The file's own content counts again.
        if let workspace, workspace.session.setBuffer(nil, forPath: path) { publish(version: nil, path: nil) }
    }

    /// A module changed on disk and not open is analysed again alone; anything else (a file
    /// created or deleted, flowpkg.json, a resource) reads the project again.
    func filesChanged(_ params: DidChangeWatchedFilesParams) {
        guard let workspace else { return }
        var modules: [String] = []
        for change in params.changes {
            guard let path = Self.path(ofURI: change.uri), workspace.contains(path) else { continue }
            if change.type == 2, workspace.session.analyses(path: path) {
                if documents[path] == nil { modules.append(path) }
            } else {
                reloadProject()
                return
            }
        }
        guard !modules.isEmpty else { return }
        for path in modules { workspace.session.setBuffer(nil, forPath: path) }
        publish(version: nil, path: nil)
    }

    func didSave(_ params: DidSaveTextDocumentParams) {
        guard let path = Self.path(ofURI: params.textDocument.uri), let workspace, workspace.contains(path) else {
            return
        }
        if path.hasSuffix("/flowpkg.json") || !workspace.session.analyses(path: path) { reloadProject() }
    }

    // MARK: Paths

    /// The file path of a `file:` URI, standardised; nil for any other scheme.
    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else {
            return uri.hasPrefix("/") ? URL(fileURLWithPath: uri).standardizedFileURL.path : nil
        }
        return url.standardizedFileURL.path
    }

    /// The first folder from `start` upward (`start` included) that holds flowpkg.json.
    static func nearestProject(from start: String) -> String? {
        var folder = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            var isDirectory = false
            let candidate = folder.appendingPathComponent("flowpkg.json").path
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory {
                return folder.path
            }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if parent.path == folder.path || folder.path == "/" { return nil }
            folder = parent
        }
    }
}

/// Settings of the server a caller may change (tests do).
public struct LanguageServerOptions: Sendable {
    /// How many threads check modules at start-up; nil: one per core.
    public var concurrency: Int?
    /// Where dependency files are read from (the cache, vendor/); the default reads
    /// `FLOWPKG_CACHE` and the standard cache.
    public var dependencies = DependencyOptions()

    public init(concurrency: Int? = nil) {
        self.concurrency = concurrency
    }
}

/// One document the client has open.
struct OpenDocument {
    var uri: String
    var version: Int?
    var text: DocumentText
}

/// Any JSON value: JSONDecoder reads the whole text before decoding, so decoding this succeeds
/// exactly when the text is JSON (JSONSerialization, which said so before, is not in
/// FoundationEssentials).
private struct AnyJSONValue: Decodable {
    init(from decoder: any Decoder) throws {}
}
