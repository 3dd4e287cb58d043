import FlowAnalysis
import LanguageServerProtocol

/// Hover and go to definition on what the types know: a member after `.` or `:` (a module's
/// function, a class's method or field, the standard library's), and a local or global function.
extension LanguageServer {
    /// The member or function named at the cursor (byte columns `start..<end` of its line), with the name written.
    private func typedMember(_ params: TextDocumentPositionParams, start: Int, end: Int, isField: Bool)
        throws -> (member: TypeMember, title: String, isMethodAccess: Bool)?
    {
        let (workspace, path, text) = try target(params)
        let line = text.line(params.position.line)
        let local =
            ModuleTypes.of(source: text.bytes, probe: (params.position.line + 1, start + 1))
            ?? Self.types(of: text, without: params.position.line)
        let name = String(decoding: Array(line)[start..<end], as: UTF8.self)
        // A local with a declared type: its type here, as the conditions around narrow it.
        if !isField, let probed = local.probed, probed.name == name, probed.type != .unknown {
            var member = TypeMember(name: name, type: probed.type, line: probed.line)
            member.file = path
            return (member, "local " + name, false)
        }
        if isField {
            guard let access = Self.memberAccess(at: end, in: line) else { return nil }
            let members = members(
                ofChain: access.chain, local: local, catalog: typeCatalog(workspace), text: text,
                line: params.position.line)
            let separator = access.isMethod ? ":" : "."
            return members?[name].map { ($0, access.chain.joined(separator: ".") + separator + name, access.isMethod) }
        }
        if var member = local.localFunctions[name] {
            member.file = try target(params).path
            return (member, name, false)
        }
        return typeCatalog(workspace).globals[name].map { ($0, name, false) }
    }

    /// Hover with the type and doc of a typed member or function; nil when the types know nothing of it.
    func typeHover(_ params: TextDocumentPositionParams, start: Int, end: Int, isField: Bool) throws -> Hover? {
        guard let (member, title, isMethodAccess) = try typedMember(params, start: start, end: end, isField: isField)
        else { return nil }
        var signature = member.signature
        if isMethodAccess, signature?.isMethod == false, signature?.parameters.isEmpty == false {
            signature?.parameters.removeFirst()
        }
        // Without annotations the symbols' hover says more (where it is defined).
        if let signature {
            guard signature.parameters.contains(where: { $0.type != .unknown }) || !signature.returns.isEmpty else {
                return nil
            }
        } else if member.type == .unknown || member.type == .function(nil) {
            return nil
        }
        var markdown = "```lua\n"
        if let signature {
            markdown += "function \(title)\(signature.parameterList)"
            if !signature.returns.isEmpty || signature.returnsVariadic { markdown += ": " + signature.returnList }
        } else {
            markdown += "\(title): \(member.type)"
        }
        markdown += "\n```"
        if let deprecation = member.deprecation {
            markdown += "\n\n**Deprecated**" + (deprecation.isEmpty ? "" : ": \(deprecation)")
        }
        if !member.doc.isEmpty { markdown += "\n\n" + member.doc }
        let documented = (signature?.parameters ?? []).filter { !$0.doc.isEmpty }
        if !documented.isEmpty {
            markdown += "\n\n" + documented.map { "- `\($0.name)`: \($0.type) — \($0.doc)" }.joined(separator: "\n")
        }
        let (workspace, _, text) = try target(params)
        if let file = member.file, member.line > 0 { markdown += "\n\n`\(relative(file, workspace)):\(member.line)`" }
        let range = Range(
            start: text.position(line: params.position.line + 1, byteColumn: start + 1, encoding: workspace.encoding),
            end: text.position(line: params.position.line + 1, byteColumn: end + 1, encoding: workspace.encoding))
        return Hover(contents: MarkupContent(markdown: markdown), range: range)
    }

    /// Where a typed member or function is declared, when a project file declares it.
    func typeDefinition(_ params: TextDocumentPositionParams, start: Int, end: Int, isField: Bool) throws
        -> [Location]?
    {
        guard let (member, _, _) = try typedMember(params, start: start, end: end, isField: isField),
            member.line > 0
        else { return nil }
        guard let path = member.file, let workspace else { return nil }
        let text = documentText(ofFileAt: path, in: workspace)
        let from = text.position(line: member.line, byteColumn: max(1, member.column), encoding: workspaceEncoding)
        let to = text.position(
            line: member.line, byteColumn: max(1, member.column) + member.name.utf8.count, encoding: workspaceEncoding)
        return [Location(uri: fileURI(path), range: Range(start: from, end: to))]
    }
}
