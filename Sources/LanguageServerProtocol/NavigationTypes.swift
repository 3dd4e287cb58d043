// The LSP types of find references and rename (specification 3.17).

/// `textDocument/references`' params: a position, and whether the declaration counts.
public struct ReferenceParams: Codable, Sendable {
    public struct Context: Codable, Sendable {
        public var includeDeclaration: Bool
    }
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var context: Context?
}

/// `textDocument/rename`'s params.
public struct RenameParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var newName: String
}

/// The server's rename capability: it answers `textDocument/prepareRename` too.
public struct RenameOptions: Codable, Sendable {
    public var prepareProvider: Bool

    public init(prepareProvider: Bool) {
        self.prepareProvider = prepareProvider
    }
}

/// `textDocument/prepareRename`'s answer: the range of the name and the text to start from.
public struct PrepareRenameResult: Codable, Sendable, Equatable {
    public var range: Range
    public var placeholder: String

    public init(range: Range, placeholder: String) {
        self.range = range
        self.placeholder = placeholder
    }
}

/// Edits to several documents, by URI.
public struct WorkspaceEdit: Codable, Sendable, Equatable {
    public var changes: [String: [TextEdit]]

    public init(changes: [String: [TextEdit]]) {
        self.changes = changes
    }
}
