// `textDocument/formatting` and `textDocument/rangeFormatting` (LSP 3.17), which `flowpkg lsp`
// answers with `flowpkg fmt`'s engine.

/// What the editor says about indentation; StyLua's configuration for the file decides instead.
public struct FormattingOptions: Codable, Sendable {
    public var tabSize: Int
    public var insertSpaces: Bool
}

/// `textDocument/formatting`'s params: the whole document.
public struct DocumentFormattingParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var options: FormattingOptions?
}

extension DocumentFormattingParams: RequestType {
    public typealias Response = [TextEdit]?
    public static let method = "textDocument/formatting"
}

/// `textDocument/rangeFormatting`'s params: the statements that meet `range`.
public struct DocumentRangeFormattingParams: Codable, Sendable {
    public var textDocument: TextDocumentIdentifier
    public var range: Range
    public var options: FormattingOptions?
}

extension DocumentRangeFormattingParams: RequestType {
    public typealias Response = [TextEdit]?
    public static let method = "textDocument/rangeFormatting"
}
