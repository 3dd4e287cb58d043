#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import LanguageServerProtocol

/// The methods the server answers, by name: each entry is registered from a request or
/// notification type (`on(DefinitionRequest.self)`), which names its method and decodes its
/// params, so no method's name is spelt here.
struct Routes {
    var requests: [String: (RequestID, Data) -> Void] = [:]
    var notifications: [String: (Data) -> Void] = [:]
}

extension LanguageServer {
    func registerRoutes() {
        // `initialize` is answered before the server runs (`handle`); once it runs, again is an error.
        on(InitializeParams.self) { _ in
            throw ResponseError(code: ErrorCode.invalidRequest, message: "already initialized")
        }
        on(ShutdownRequest.self) { [unowned self] _ in
            // What was sent before is published before the answer.
            publishPendingEdits()
            publisher.drain()
            state = .shutDown
            return NullResult()
        }
        on(InitializedNotification.self) { [unowned self] _ in sendRegistrationOfWatchedFiles() }

        on(DidOpenTextDocumentParams.self) { [unowned self] in didOpen($0) }
        on(DidChangeTextDocumentParams.self) { [unowned self] in didChange($0) }
        on(DidCloseTextDocumentParams.self) { [unowned self] in didClose($0) }
        on(DidSaveTextDocumentParams.self) { [unowned self] in didSave($0) }
        on(DidChangeWatchedFilesParams.self) { [unowned self] in filesChanged($0) }

        on(DefinitionRequest.self) { [unowned self] in try definition($0.place) }
        on(HoverRequest.self) { [unowned self] in try hover($0.place) }
        on(CompletionRequest.self) { [unowned self] in try completion($0.place) }
        on(ReferenceParams.self) { [unowned self] in try references($0) }
        on(PrepareRenameRequest.self) { [unowned self] in try prepareRename($0.place) }
        on(RenameParams.self) { [unowned self] in try rename($0) }
        on(DocumentFormattingParams.self) { [unowned self] in try format($0.textDocument, range: nil) }
        on(DocumentRangeFormattingParams.self) { [unowned self] in try format($0.textDocument, range: $0.range) }
        registerTypeRoutes()
    }
}
