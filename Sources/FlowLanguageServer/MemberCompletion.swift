import FlowAnalysis
import FlowProject
import LanguageServerProtocol

/// Completion after `.` and `:`: the fields of a project module's table (`Util.`), of a class
/// (`self:`, a local annotated with a class), of a local table, of the standard library and
/// the host's API (`string.`), each with its signature and doc comment; nothing global.
extension LanguageServer {
    /// What precedes the cursor: `object.chain.` or `object:`, and the part of a name typed after it.
    struct MemberAccess: Equatable {
        var chain: [String]
        var prefix: String
        var isMethod: Bool
    }

    /// The member access the cursor ends, read backwards from byte column `column` of `line`.
    static func memberAccess(at column: Int, in line: ArraySlice<UInt8>) -> MemberAccess? {
        let bytes = Array(line)
        var index = min(column, bytes.count)
        func isNameByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39)
                || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte >= 0x80
        }
        func name() -> String {
            let end = index
            while index > 0, isNameByte(bytes[index - 1]) { index -= 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }
        let prefix = name()
        guard index > 0, bytes[index - 1] == UInt8(ascii: ".") || bytes[index - 1] == UInt8(ascii: ":") else {
            return nil
        }
        let isMethod = bytes[index - 1] == UInt8(ascii: ":")
        guard !(index > 1 && bytes[index - 2] == UInt8(ascii: ".")) else { return nil }  // `..` concatenates
        index -= 1
        var chain: [String] = []
        while true {
            let part = name()
            guard !part.isEmpty, !(part.first!.isNumber) else { return nil }
            chain.insert(part, at: 0)
            guard index > 0, bytes[index - 1] == UInt8(ascii: "."), !isMethod || chain.count > 0 else { break }
            if index > 1, bytes[index - 2] == UInt8(ascii: ".") { break }
            index -= 1
        }
        return MemberAccess(chain: chain, prefix: prefix, isMethod: isMethod)
    }

    /// The project's types (definitions and every module's), updated from the modules analysed
    /// since; the open documents are the modules edited (hot in `SessionTypeCatalog`).
    func typeCatalog(_ workspace: Workspace) -> TypeCatalog {
        workspace.types.catalog(of: workspace.session, editing: documents.keys)
    }

    /// The members `access` may complete to, in the document `text` (its line `line`, 0-based, being typed).
    func memberCompletions(_ access: MemberAccess, text: DocumentText, line: Int, workspace: Workspace)
        -> [CompletionItem]
    {
        let catalog = typeCatalog(workspace)
        let local = Self.types(of: text, without: line, reading: access.chain[0])
        guard let members = members(ofChain: access.chain, local: local, catalog: catalog, text: text, line: line)
        else { return [] }
        let prefix = access.prefix.lowercased()
        return members.values.filter { member in
            member.name.lowercased().hasPrefix(prefix) && (!access.isMethod || member.signature != nil)
        }.sorted { $0.name < $1.name }.map { Self.completionItem($0, isMethodAccess: access.isMethod) }
    }

    /// The fields of what the names of `chain` hold at the cursor (`Util`, `self.config`).
    func members(
        ofChain chain: [String], local: ModuleTypes, catalog: TypeCatalog, text: DocumentText, line: Int
    ) -> [String: TypeMember]? {
        guard var members = members(of: chain[0], local: local, catalog: catalog, text: text, line: line) else {
            return nil
        }
        for name in chain.dropFirst() {
            guard let member = members[name], case .named(let className) = member.type else { return nil }
            members = catalog.fields(ofClass: className)
        }
        return members
    }

    /// The module's types from `text` with its line `line` (being typed, and rarely parsing)
    /// replaced by a read of the local `head` (`local _ = head`), so `probed` is its type there
    /// as the conditions around narrow it; with the line blanked when that does not parse either.
    static func types(of text: DocumentText, without line: Int, reading head: String? = nil) -> ModuleTypes {
        if let head, head != "self" {
            let typed = text.line(line)
            let read = Array("local _ = \(head)".utf8)
            let bytes = Array(text.bytes[..<typed.startIndex]) + read + Array(text.bytes[typed.endIndex...])
            let column = read.count - head.utf8.count + 1
            if let types = ModuleTypes.of(source: bytes, probe: (line + 1, column)) { return types }
        }
        var bytes = text.bytes
        for index in text.line(line).indices { bytes[index] = 0x20 }
        return ModuleTypes.of(source: bytes) ?? ModuleTypes.of(source: text.bytes) ?? ModuleTypes()
    }

    /// The fields of what the name `head` holds at the cursor.
    private func members(
        of head: String, local: ModuleTypes, catalog: TypeCatalog, text: DocumentText, line: Int
    ) -> [String: TypeMember]? {
        if head == "self", let owner = Self.methodOwner(above: line, in: text) {
            return members(of: owner, local: local, catalog: catalog, text: text, line: line)
        }
        if let module = local.requiredModules[head] { return catalog.exports(ofModule: module) }
        if local.localClasses[head] == nil, let probed = local.probed, probed.name == head,
            let members = Self.members(ofValue: probed.type, catalog: catalog)
        {
            return members
        }
        if let className = local.localClasses[head] {
            var fields = catalog.fields(ofClass: className)
            fields.merge(local.localTables[head] ?? [:]) { old, _ in old }
            return fields
        }
        if let fields = local.localTables[head] { return fields }
        return catalog.globalFields[head]
    }

    /// `X` of the `function X:name(` (or `function X.name(`) the cursor's line is in.
    static func methodOwner(above line: Int, in text: DocumentText) -> String? {
        var current = line
        while current >= 0 {
            let words = String(decoding: text.line(current), as: UTF8.self).split(whereSeparator: {
                $0 == " " || $0 == "\t" || $0 == "("
            })
            if let keyword = words.firstIndex(of: "function"), keyword + 1 < words.count {
                let target = words[keyword + 1]
                if let colon = target.firstIndex(of: ":") { return String(target[..<colon]) }
            }
            current -= 1
        }
        return nil
    }

    static func completionItem(_ member: TypeMember, isMethodAccess: Bool) -> CompletionItem {
        var detail = member.type.description
        var kind = CompletionItem.Kind.field
        if var signature = member.signature {
            if isMethodAccess, !signature.isMethod, !signature.parameters.isEmpty { signature.parameters.removeFirst() }
            detail = "function \(member.name)\(signature.parameterList)"
            if !signature.returns.isEmpty || signature.returnsVariadic { detail += ": " + signature.returnList }
            kind = signature.isMethod || isMethodAccess ? CompletionItem.Kind.method : CompletionItem.Kind.function
        } else if case .function = member.type {
            kind = CompletionItem.Kind.function
        }
        var doc = member.doc
        if let deprecation = member.deprecation {
            doc = "**Deprecated**" + (deprecation.isEmpty ? "" : ": \(deprecation)") + "\n\n" + doc
        }
        return CompletionItem(
            label: member.name, kind: kind, detail: detail,
            documentation: doc.isEmpty ? nil : MarkupContent(markdown: doc))
    }
}
