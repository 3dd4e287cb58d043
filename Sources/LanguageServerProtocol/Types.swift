// The LSP types flowpkg's server reads and writes (see JSONRPC.swift for why they are written
// by hand). Names and fields follow the specification, version 3.17.

/// A place in a document: 0-based line, and character offset in the negotiated encoding
/// (UTF-16 code units unless the client accepted `utf-8`).
public struct Position: Codable, Sendable, Equatable, Hashable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
}

public struct Range: Codable, Sendable, Equatable, Hashable {
    public var start: Position
    public var end: Position

    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }
}

public struct Location: Codable, Sendable, Equatable {
    public var uri: String
    public var range: Range

    public init(uri: String, range: Range) {
        self.uri = uri
        self.range = range
    }
}

public struct TextDocumentIdentifier: Codable, Sendable {
    public var uri: String
}

public struct TextDocumentItem: Codable, Sendable {
    public var uri: String
    public var languageId: String?
    public var version: Int?
    public var text: String
}

public struct VersionedTextDocumentIdentifier: Codable, Sendable {
    public var uri: String
    public var version: Int?
}

public struct DidOpenTextDocumentParams: Codable, Sendable {
    public var textDocument: TextDocumentItem
}

/// One change: `range` set for an incremental change, absent for the whole new text.
public struct TextDocumentContentChangeEvent: Codable, Sendable {
    public var range: Range?
    public var text: String

    public init(range: Range?, text: String) {
        self.range = range
        self.text = text
    }
}

public struct DidChangeTextDocumentParams: Codable, Sendable {
    public var textDocument: VersionedTextDocumentIdentifier
    public var contentChanges: [TextDocumentContentChangeEvent]
}

public struct DidCloseTextDocumentParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
}

public struct DidSaveTextDocumentParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
}

public struct FileEvent: Codable, Sendable {
    public var uri: String
    public var type: Int
}

public struct DidChangeWatchedFilesParams: Codable, Sendable {
    public var changes: [FileEvent]
}

public struct TextDocumentPositionParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
}

public struct WorkspaceFolder: Codable, Sendable {
    public var uri: String
    public var name: String?
}

/// What the server reads of `initialize`: where the project is, and the encodings the client takes.
public struct InitializeParams: Codable, Sendable {
    public struct ClientCapabilities: Codable, Sendable {
        public struct General: Codable, Sendable {
            public var positionEncodings: [String]?
        }
        public struct Workspace: Codable, Sendable {
            public struct DidChangeWatchedFiles: Codable, Sendable {
                public var dynamicRegistration: Bool?
            }
            public var didChangeWatchedFiles: DidChangeWatchedFiles?
        }
        public var general: General?
        public var workspace: Workspace?
    }

    public var rootUri: String?
    public var rootPath: String?
    public var workspaceFolders: [WorkspaceFolder]?
    public var capabilities: ClientCapabilities?
    /// flowpkg's own options: `{"inlayHints": true}` turns parameter-name hints on.
    public var initializationOptions: InitializationOptions?

    public struct InitializationOptions: Codable, Sendable {
        public var inlayHints: Bool?
    }
}

public struct ServerCapabilities: Codable, Sendable {
    public struct TextDocumentSyncOptions: Codable, Sendable {
        public struct SaveOptions: Codable, Sendable {
            public var includeText: Bool
        }
        public var openClose: Bool
        /// 1: the whole text on every change; 2: incremental changes.
        public var change: Int
        public var save: SaveOptions
    }

    public struct CompletionOptions: Codable, Sendable {
        public var triggerCharacters: [String]
    }

    public var positionEncoding: String
    public var textDocumentSync: TextDocumentSyncOptions
    public var definitionProvider: Bool
    public var hoverProvider: Bool
    public var completionProvider: CompletionOptions
    public var referencesProvider = true
    public var renameProvider = RenameOptions(prepareProvider: true)
    public var documentFormattingProvider = true
    public var documentRangeFormattingProvider = true
    // The types' features (issue 47); inlay hints only when the client asks for them.
    public var signatureHelpProvider = SignatureHelpOptions(triggerCharacters: ["(", ","])
    public var documentSymbolProvider = true
    public var workspaceSymbolProvider = true
    public var inlayHintProvider: Bool?

    public init(positionEncoding: String, triggerCharacters: [String]) {
        self.positionEncoding = positionEncoding
        textDocumentSync = TextDocumentSyncOptions(openClose: true, change: 2, save: .init(includeText: false))
        definitionProvider = true
        hoverProvider = true
        completionProvider = CompletionOptions(triggerCharacters: triggerCharacters)
    }
}

public struct InitializeResult: Codable, Sendable {
    public struct ServerInfo: Codable, Sendable {
        public var name: String
        public var version: String
    }
    public var capabilities: ServerCapabilities
    public var serverInfo: ServerInfo

    public init(capabilities: ServerCapabilities, name: String, version: String) {
        self.capabilities = capabilities
        serverInfo = ServerInfo(name: name, version: version)
    }
}

/// A problem shown in the editor.
public struct LSPDiagnostic: Codable, Sendable, Equatable {
    /// 1 error, 2 warning, 3 information, 4 hint.
    public var severity: Int
    public var range: Range
    public var code: String
    public var source: String
    public var message: String
    /// Extra machine-readable data: flowpkg puts the fix's hint here too.
    public var data: [String: String]?

    public init(severity: Int, range: Range, code: String, source: String, message: String, data: [String: String]?) {
        self.severity = severity
        self.range = range
        self.code = code
        self.source = source
        self.message = message
        self.data = data
    }
}

public struct PublishDiagnosticsParams: Codable, Sendable {
    public var uri: String
    public var version: Int?
    public var diagnostics: [LSPDiagnostic]

    public init(uri: String, version: Int?, diagnostics: [LSPDiagnostic]) {
        self.uri = uri
        self.version = version
        self.diagnostics = diagnostics
    }
}

public struct TextEdit: Codable, Sendable, Equatable {
    public var range: Range
    public var newText: String

    public init(range: Range, newText: String) {
        self.range = range
        self.newText = newText
    }
}

public struct CompletionItem: Codable, Sendable, Equatable {
    /// 6 variable, 9 module, 17 file, 21 constant, ...
    public var label: String
    public var kind: Int?
    public var detail: String?
    public var textEdit: TextEdit?
    /// The doc comment, as Markdown.
    public var documentation: MarkupContent?

    public init(
        label: String, kind: Int?, detail: String?, textEdit: TextEdit? = nil, documentation: MarkupContent? = nil
    ) {
        self.label = label
        self.kind = kind
        self.detail = detail
        self.textEdit = textEdit
        self.documentation = documentation
    }

    public enum Kind {
        public static let method = 2
        public static let function = 3
        public static let field = 5
        public static let variable = 6
        public static let module = 9
        public static let file = 17
        public static let constant = 21
    }
}

public struct CompletionList: Codable, Sendable {
    public var isIncomplete: Bool
    public var items: [CompletionItem]

    public init(isIncomplete: Bool, items: [CompletionItem]) {
        self.isIncomplete = isIncomplete
        self.items = items
    }
}

public struct MarkupContent: Codable, Sendable, Equatable {
    public var kind: String
    public var value: String

    public init(markdown: String) {
        kind = "markdown"
        value = markdown
    }
}

public struct Hover: Codable, Sendable, Equatable {
    public var contents: MarkupContent
    public var range: Range?

    public init(contents: MarkupContent, range: Range?) {
        self.contents = contents
        self.range = range
    }
}

/// `client/registerCapability`'s params, for the file watching the server asks the client for.
public struct RegistrationParams: Codable, Sendable {
    public struct Registration: Codable, Sendable {
        public var id: String
        public var method: String
        public var registerOptions: WatchOptions
    }
    public struct WatchOptions: Codable, Sendable {
        public struct Watcher: Codable, Sendable {
            public var globPattern: String
        }
        public var watchers: [Watcher]
    }
    public var registrations: [Registration]

    /// Asks to be told of changes to files matching `patterns`.
    public init(watching patterns: [String]) {
        registrations = [
            Registration(
                id: "flowpkg-watched-files", method: "workspace/didChangeWatchedFiles",
                registerOptions: WatchOptions(watchers: patterns.map { WatchOptions.Watcher(globPattern: $0) }))
        ]
    }
}
