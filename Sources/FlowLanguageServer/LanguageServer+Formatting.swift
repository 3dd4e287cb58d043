import FlowFormat
import LanguageServerProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension LanguageServer {
    /// `textDocument/formatting` and `rangeFormatting`: the open document's text through
    /// `flowpkg fmt`'s engine, with the StyLua configuration found for its file, checked
    /// against Lua's bytecode as a write is; one edit replacing the text, or none when it is
    /// formatted. A document with a syntax error gets no edit (its diagnostics say why), and
    /// so does one whose text the server does not hold (outside a project): the file on disk
    /// may be older than the editor's buffer.
    func format(_ document: TextDocumentIdentifier, range: Range?) throws -> [TextEdit]? {
        guard let path = Self.path(ofURI: document.uri), let text = documents[path]?.text else { return nil }
        let options: FormatOptions
        do {
            options = try ConfigurationLookup().options(for: path)
        } catch {
            throw ResponseError(code: ErrorCode.requestFailed, message: error.description)
        }
        var run = FormatRun()
        run.verify = true
        if let range {
            run.range =
                text.offset(of: range.start, encoding: encoding)..<text.offset(of: range.end, encoding: encoding)
        }
        guard
            let formatted = try? run.formatText(
                text.bytes, options: options, checked: CheckedFormat(), chunkName: path),
            formatted != text.bytes
        else { return [] }
        let end = text.position(ofOffset: text.bytes.count, encoding: encoding)
        let whole = Range(start: Position(line: 0, character: 0), end: end)
        return [TextEdit(range: whole, newText: String(decoding: formatted, as: UTF8.self))]
    }
}
