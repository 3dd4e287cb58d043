import FlowAnalysis
import LanguageServerProtocol

/// Signature help: the call the cursor is in, its callee's annotated signature and doc, and
/// which parameter the cursor is at. Read from the current line's text, as completion is.
extension LanguageServer {
    func registerTypeRoutes() {
        on(SignatureHelpRequest.self) { [unowned self] in try signatureHelp($0.place) }
        on(DocumentSymbolRequest.self) { [unowned self] in try documentSymbols($0.textDocument) }
        on(WorkspaceSymbolRequest.self) { [unowned self] in workspaceSymbols($0.query) }
        on(InlayHintRequest.self) { [unowned self] in try inlayHints($0) }
    }

    /// The innermost call open before byte column `column`: where its `(` is, and how many
    /// commas of it come before the cursor.
    static func openCall(before column: Int, in line: ArraySlice<UInt8>) -> (paren: Int, commas: Int)? {
        let bytes = Array(line)
        var stack: [(position: Int, isCall: Bool, commas: Int)] = []
        var quote: UInt8?
        var index = 0
        while index < min(column, bytes.count) {
            let byte = bytes[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == open { quote = nil }
            } else {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
                case UInt8(ascii: "("): stack.append((index, true, 0))
                case UInt8(ascii: "{"), UInt8(ascii: "["): stack.append((index, false, 0))
                case UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast()
                case UInt8(ascii: ","): if !stack.isEmpty { stack[stack.count - 1].commas += 1 }
                case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                    return nil
                default: break
                }
            }
            index += 1
        }
        guard let call = stack.last(where: \.isCall) else { return nil }
        return (call.position, call.commas)
    }

    /// The callee a call's `(` at byte `paren` follows: a member (`Util.double`, `self:add`) or a name.
    func callee(
        endingAt paren: Int, line lineNumber: Int, text: DocumentText, workspace: Workspace, local: ModuleTypes
    ) -> (member: TypeMember, isMethodAccess: Bool)? {
        let line = text.line(lineNumber)
        let catalog = typeCatalog(workspace)
        var end = paren - line.startIndex
        let bytes = Array(line)
        while end > 0, bytes[end - 1] == 0x20 { end -= 1 }
        if let access = Self.memberAccess(at: end, in: line) {
            let members = members(ofChain: access.chain, local: local, catalog: catalog, text: text, line: lineNumber)
            return members?[access.prefix].map { ($0, access.isMethod) }
        }
        var start = end
        while start > 0,
            bytes[start - 1] == UInt8(ascii: "_") || bytes[start - 1] >= 0x80
                || (bytes[start - 1] | 0x20 >= 0x61 && bytes[start - 1] | 0x20 <= 0x7A)
                || (bytes[start - 1] >= 0x30 && bytes[start - 1] <= 0x39)
        {
            start -= 1
        }
        let name = String(decoding: bytes[start..<end], as: UTF8.self)
        guard !name.isEmpty else { return nil }
        return (local.localFunctions[name] ?? catalog.globals[name]).map { ($0, false) }
    }

    func signatureHelp(_ params: TextDocumentPositionParams) throws -> SignatureHelp? {
        let (workspace, _, text) = try target(params)
        let line = text.line(params.position.line)
        let column = DocumentText.byteColumn(of: params.position.character, in: line, encoding: workspaceEncoding)
        guard let call = Self.openCall(before: column, in: line) else { return nil }
        let local = Self.types(of: text, without: params.position.line)
        guard
            let (member, isMethodAccess) = callee(
                endingAt: line.startIndex + call.paren, line: params.position.line, text: text, workspace: workspace,
                local: local),
            var signature = member.signature
        else { return nil }
        if isMethodAccess, !signature.isMethod, !signature.parameters.isEmpty { signature.parameters.removeFirst() }
        let parameters = signature.parameters.map { parameter in
            SignatureInformation.Parameter(
                label: "\(parameter.name)\(parameter.isOptional ? "?" : ""): \(parameter.type)",
                documentation: parameter.doc.isEmpty ? nil : MarkupContent(markdown: parameter.doc))
        }
        var labels = parameters.map(\.label)
        if signature.isVariadic { labels.append("...") }
        var label = "\(member.name)(" + labels.joined(separator: ", ") + ")"
        if !signature.returns.isEmpty || signature.returnsVariadic { label += ": " + signature.returnList }
        let active = signature.isVariadic ? min(call.commas, parameters.count) : call.commas
        return SignatureHelp(
            signatures: [
                SignatureInformation(
                    label: label, documentation: member.doc.isEmpty ? nil : MarkupContent(markdown: member.doc),
                    parameters: parameters)
            ], activeParameter: active)
    }
}
