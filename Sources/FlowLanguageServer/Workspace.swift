import FlowAnalysis
import FlowDiagnostics
import FlowProject
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import LanguageServerProtocol

/// The project the server checks: its validation session, and what was last published for
/// each file, so a change publishes only the files whose findings changed (an empty list for
/// a file whose problems are gone).
final class Workspace {
    let session: ValidationSession
    let root: String
    let encoding: PositionEncoding
    private var published: [String: [Diagnostic]] = [:]
    /// The project's types, kept between edits (MemberCompletion, hover, signature help).
    let types = SessionTypeCatalog()

    init(session: ValidationSession, encoding: PositionEncoding) {
        self.session = session
        self.root = session.root.path
        self.encoding = encoding
    }

    /// Whether `path` is inside the project folder.
    func contains(_ path: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// The URI to publish a file's findings under: the client's own for an open document.
    static func uri(of path: String, documents: [String: OpenDocument]) -> String {
        documents[path]?.uri ?? URL(fileURLWithPath: path).absoluteString
    }

    /// The messages for every file whose findings (`current`, from a snapshot of the session)
    /// changed since the last call. Called by the `DiagnosticsPublisher`'s thread alone.
    func changedDiagnostics(
        _ current: [String: [Diagnostic]], documents: [String: OpenDocument], version: Int?, versionPath: String?
    ) -> [PublishDiagnosticsParams] {
        var messages: [PublishDiagnosticsParams] = []
        // The edited document always: its version tells the client which text the list is for.
        for (file, diagnostics) in current where published[file] != diagnostics || file == versionPath {
            messages.append(
                message(file, diagnostics, documents: documents, version: file == versionPath ? version : nil))
        }
        if let versionPath, current[versionPath] == nil, published[versionPath] == nil {
            messages.append(message(versionPath, [], documents: documents, version: version))
        }
        for file in published.keys where current[file] == nil {
            messages.append(message(file, [], documents: documents, version: file == versionPath ? version : nil))
        }
        published = current
        return messages.sorted { $0.uri < $1.uri }
    }

    private func message(_ file: String, _ diagnostics: [Diagnostic], documents: [String: OpenDocument], version: Int?)
        -> PublishDiagnosticsParams
    {
        var text: DocumentText? = documents[file]?.text
        if text == nil, diagnostics.contains(where: { $0.line != nil }) {
            text = FileManager.default.contents(atPath: file).map { DocumentText([UInt8]($0)) }
        }
        return PublishDiagnosticsParams(
            uri: Self.uri(of: file, documents: documents), version: version,
            diagnostics: diagnostics.map { convert($0, text: text) })
    }

    /// A flowpkg finding as an editor's: severity, code, the message with its hint, and the
    /// range of the token it points at.
    func convert(_ diagnostic: Diagnostic, text: DocumentText?) -> LSPDiagnostic {
        var range = Range(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        if let line = diagnostic.line, let text {
            let lineText = text.line(line - 1)
            if let column = diagnostic.column {
                let start = max(0, min(column - 1, lineText.count))
                let end = Self.tokenEnd(in: lineText, from: start)
                range = Range(
                    start: text.position(line: line, byteColumn: start + 1, encoding: encoding),
                    end: text.position(line: line, byteColumn: end + 1, encoding: encoding))
            } else {
                range = Range(
                    start: text.position(line: line, byteColumn: 1, encoding: encoding),
                    end: text.position(line: line, byteColumn: lineText.count + 1, encoding: encoding))
            }
        } else if let line = diagnostic.line {
            let position = Position(line: max(0, line - 1), character: max(0, (diagnostic.column ?? 1) - 1))
            range = Range(start: position, end: position)
        }
        let severity: Int
        switch diagnostic.severity {
        case .error: severity = 1
        case .warning: severity = 2
        case .note: severity = 3
        }
        var message = diagnostic.message
        if let hint = diagnostic.hint { message += "\nhint: " + hint }
        return LSPDiagnostic(
            severity: severity, range: range, code: diagnostic.code.code, source: "flowpkg", message: message,
            data: diagnostic.hint.map { ["hint": $0] })
    }

    /// Where the token starting at byte column `start` ends: a name, a quoted string, or one character.
    static func tokenEnd(in line: ArraySlice<UInt8>, from start: Int) -> Int {
        let bytes = Array(line)
        guard start < bytes.count else { return start }
        let first = bytes[start]
        func isNameByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
                || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
                || byte >= 0x80
        }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var end = start + 1
            while end < bytes.count, bytes[end] != first { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
            return min(end + 1, bytes.count)
        }
        if isNameByte(first) {
            var end = start
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            return end
        }
        var end = start + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return end
    }
}
