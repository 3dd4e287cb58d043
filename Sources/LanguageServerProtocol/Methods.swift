#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Each message the server reads or writes is a type bound to its method name, as
// sourcekit-lsp's requests are (`DefinitionRequest.method`): the server routes an incoming
// message by looking its method up among the types it registered, and decodes its params once,
// into that type. No method name is written anywhere else.

/// A message bound to its LSP method name.
public protocol MethodType: Sendable {
    /// The method name on the wire: `textDocument/definition`.
    static var method: String { get }
}

/// A message the client sends: its params decode into the type.
public protocol IncomingMethod: MethodType, Decodable {
    /// Reads the message's params from the whole message `data`.
    static func decode(message data: Data, using decoder: JSONDecoder) throws -> Self
}

extension IncomingMethod {
    public static func decode(message data: Data, using decoder: JSONDecoder) throws -> Self {
        try decoder.decode(ParamsOf<Self>.self, from: data).params
    }
}

/// A request the client sends, and the type of its answer.
public protocol RequestType: IncomingMethod {
    associatedtype Response: Encodable
}

/// A notification the client sends: it gets no answer.
public protocol NotificationType: IncomingMethod {}

/// A message without params: whatever `params` holds, it is not read.
public protocol ParameterlessMethod: IncomingMethod {
    init()
}

extension ParameterlessMethod {
    public static func decode(message data: Data, using decoder: JSONDecoder) throws -> Self { Self() }
    public init(from decoder: any Decoder) throws { self.init() }
}

/// A `null` result.
public struct NullResult: Encodable, Sendable {
    public init() {}

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}

// MARK: Lifecycle

extension InitializeParams: RequestType {
    public typealias Response = InitializeResult
    public static let method = "initialize"
}

public struct InitializedNotification: NotificationType, ParameterlessMethod {
    public static let method = "initialized"
    public init() {}
}

public struct ShutdownRequest: RequestType, ParameterlessMethod {
    public typealias Response = NullResult
    public static let method = "shutdown"
    public init() {}
}

public struct ExitNotification: NotificationType, ParameterlessMethod {
    public static let method = "exit"
    public init() {}
}

// MARK: Documents

extension DidOpenTextDocumentParams: NotificationType {
    public static let method = "textDocument/didOpen"
}

extension DidChangeTextDocumentParams: NotificationType {
    public static let method = "textDocument/didChange"
}

extension DidCloseTextDocumentParams: NotificationType {
    public static let method = "textDocument/didClose"
}

extension DidSaveTextDocumentParams: NotificationType {
    public static let method = "textDocument/didSave"
}

extension DidChangeWatchedFilesParams: NotificationType {
    public static let method = "workspace/didChangeWatchedFiles"
}

// MARK: Language features

/// A request about one place in a document (the params of definition, hover, completion and
/// prepareRename are the same; each is a type of its own so that it carries its method).
public protocol TextDocumentPositionRequest: RequestType {
    var textDocument: TextDocumentIdentifier { get }
    var position: Position { get }
}

extension TextDocumentPositionRequest {
    /// The document and the place in it.
    public var place: TextDocumentPositionParams {
        TextDocumentPositionParams(textDocument: textDocument, position: position)
    }
}

public struct DefinitionRequest: TextDocumentPositionRequest {
    public typealias Response = [Location]
    public static let method = "textDocument/definition"
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

public struct HoverRequest: TextDocumentPositionRequest {
    public typealias Response = Hover?
    public static let method = "textDocument/hover"
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

public struct CompletionRequest: TextDocumentPositionRequest {
    public typealias Response = CompletionList
    public static let method = "textDocument/completion"
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

public struct PrepareRenameRequest: TextDocumentPositionRequest {
    public typealias Response = PrepareRenameResult?
    public static let method = "textDocument/prepareRename"
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

extension ReferenceParams: TextDocumentPositionRequest {
    public typealias Response = [Location]
    public static let method = "textDocument/references"
}

extension RenameParams: TextDocumentPositionRequest {
    public typealias Response = WorkspaceEdit?
    public static let method = "textDocument/rename"
}

// MARK: What the server sends

/// A notification or request the server sends.
public protocol OutgoingMethod: MethodType, Encodable {}

extension PublishDiagnosticsParams: OutgoingMethod {
    public static let method = "textDocument/publishDiagnostics"
}

extension RegistrationParams: OutgoingMethod {
    public static let method = "client/registerCapability"
}

/// `window/logMessage`: a line for the client's log (1 error, 2 warning, 3 info, 4 log).
public struct LogMessageNotification: OutgoingMethod, Equatable {
    public static let method = "window/logMessage"
    public var type: Int
    public var message: String

    public init(type: Int, message: String) {
        self.type = type
        self.message = message
    }
}

/// `window/showMessage`: a message the client shows the user (1 error, 2 warning, 3 info, 4 log).
public struct ShowMessageNotification: OutgoingMethod, Equatable {
    public static let method = "window/showMessage"
    public var type: Int
    public var message: String

    public init(type: Int, message: String) {
        self.type = type
        self.message = message
    }
}

extension OutgoingMessage where Params: OutgoingMethod {
    /// `params` sent under its own method name; with `id`, as a request.
    public init(_ params: Params, id: RequestID? = nil) {
        self.init(id: id, method: Params.method, params: params)
    }
}
