// The LSP messages of the types' editor features (specification 3.17): signature help,
// document and workspace symbols, inlay hints.

/// `textDocument/signatureHelp`: the signature of the call the cursor is in.
public struct SignatureHelpRequest: TextDocumentPositionRequest {
    public typealias Response = SignatureHelp?
    public static let method = "textDocument/signatureHelp"
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

public struct SignatureHelp: Codable, Sendable, Equatable {
    public var signatures: [SignatureInformation]
    public var activeSignature: Int
    public var activeParameter: Int

    public init(signatures: [SignatureInformation], activeSignature: Int = 0, activeParameter: Int) {
        self.signatures = signatures
        self.activeSignature = activeSignature
        self.activeParameter = activeParameter
    }
}

public struct SignatureInformation: Codable, Sendable, Equatable {
    public struct Parameter: Codable, Sendable, Equatable {
        /// The parameter as it stands in the signature's label (`n: number`).
        public var label: String
        public var documentation: MarkupContent?

        public init(label: String, documentation: MarkupContent?) {
            self.label = label
            self.documentation = documentation
        }
    }

    public var label: String
    public var documentation: MarkupContent?
    public var parameters: [Parameter]

    public init(label: String, documentation: MarkupContent?, parameters: [Parameter]) {
        self.label = label
        self.documentation = documentation
        self.parameters = parameters
    }
}

public struct SignatureHelpOptions: Codable, Sendable {
    public var triggerCharacters: [String]

    public init(triggerCharacters: [String]) {
        self.triggerCharacters = triggerCharacters
    }
}

/// A named place: a function, a class, a field (document and workspace symbols).
public struct SymbolInformation: Codable, Sendable, Equatable {
    public enum Kind {
        public static let module = 2
        public static let `class` = 5
        public static let method = 6
        public static let field = 8
        public static let function = 12
        public static let variable = 13
    }

    public var name: String
    public var kind: Int
    public var location: Location
    public var containerName: String?

    public init(name: String, kind: Int, location: Location, containerName: String?) {
        self.name = name
        self.kind = kind
        self.location = location
        self.containerName = containerName
    }
}

/// `textDocument/documentSymbol`.
public struct DocumentSymbolRequest: RequestType {
    public typealias Response = [SymbolInformation]
    public static let method = "textDocument/documentSymbol"
    public var textDocument: TextDocumentIdentifier
}

/// `workspace/symbol`: the project's symbols whose name holds `query`.
public struct WorkspaceSymbolRequest: RequestType {
    public typealias Response = [SymbolInformation]
    public static let method = "workspace/symbol"
    public var query: String
}

/// `textDocument/inlayHint`: the parameter names shown before a call's arguments.
public struct InlayHintRequest: RequestType {
    public typealias Response = [InlayHint]
    public static let method = "textDocument/inlayHint"
    public var textDocument: TextDocumentIdentifier
    public var range: Range
}

public struct InlayHint: Codable, Sendable, Equatable {
    public var position: Position
    public var label: String
    /// 2: a parameter's name.
    public var kind: Int
    public var paddingRight: Bool

    public init(position: Position, label: String) {
        self.position = position
        self.label = label
        kind = 2
        paddingRight = true
    }
}

extension TextDocumentPositionParams {
    /// A place in a document, for a request that names only the document (symbols, inlay hints).
    public init(document: TextDocumentIdentifier, position: Position) {
        self.init(textDocument: document, position: position)
    }
}
