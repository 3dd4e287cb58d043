import FlowAnalysis
import FlowProject
import LanguageServerProtocol

/// Document and workspace symbols (functions, classes, module fields) and inlay hints of
/// parameter names, from the types' view of each module.
extension LanguageServer {
    private func location(_ member: TypeMember, path: String, text: DocumentText) -> Location {
        let start = text.position(line: member.line, byteColumn: max(1, member.column), encoding: workspaceEncoding)
        let end = text.position(
            line: member.line, byteColumn: max(1, member.column) + member.name.utf8.count, encoding: workspaceEncoding)
        return Location(uri: fileURI(path), range: Range(start: start, end: end))
    }

    private static func kind(_ member: TypeMember) -> Int {
        guard let signature = member.signature else {
            if case .function = member.type { return SymbolInformation.Kind.function }
            return SymbolInformation.Kind.field
        }
        return signature.isMethod ? SymbolInformation.Kind.method : SymbolInformation.Kind.function
    }

    /// The symbols a module's types declare, in source order.
    private func symbols(of types: ModuleTypes, path: String, text: DocumentText, module: String?)
        -> [SymbolInformation]
    {
        var found: [SymbolInformation] = []
        func add(_ member: TypeMember, container: String?) {
            guard member.line > 0 else { return }
            found.append(
                SymbolInformation(
                    name: member.name, kind: Self.kind(member), location: location(member, path: path, text: text),
                    containerName: container))
        }
        for definition in types.classes.values {
            let place = TypeMember(name: definition.name, type: .unknown, line: definition.line, column: 1)
            found.append(
                SymbolInformation(
                    name: definition.name, kind: SymbolInformation.Kind.class,
                    location: location(place, path: path, text: text), containerName: module))
            for field in definition.fields.values { add(field, container: definition.name) }
        }
        for member in types.localFunctions.values { add(member, container: module) }
        for member in types.exports.values { add(member, container: module) }
        for (table, fields) in types.localTables where types.localClasses[table] == nil {
            for member in fields.values { add(member, container: table) }
        }
        for member in types.globals.values { add(member, container: nil) }
        var seen: Set<String> = []
        return found.filter { seen.insert("\($0.name)@\($0.location.range.start)").inserted }.sorted {
            ($0.location.range.start.line, $0.location.range.start.character)
                < ($1.location.range.start.line, $1.location.range.start.character)
        }
    }

    func documentSymbols(_ document: TextDocumentIdentifier) throws -> [SymbolInformation] {
        let place = TextDocumentPositionParams(document: document, position: Position(line: 0, character: 0))
        let (workspace, path, text) = try target(place)
        guard let types = ModuleTypes.of(source: text.bytes) else { return [] }
        return symbols(
            of: types, path: path, text: text, module: workspace.session.module(atPath: path)?.name.rawValue)
    }

    /// The project's symbols whose name holds `query` (case-insensitive), at most 500.
    func workspaceSymbols(_ query: String) -> [SymbolInformation] {
        guard let workspace else { return [] }
        let needle = query.lowercased()
        var found: [SymbolInformation] = []
        for (module, path) in workspace.session.moduleFiles {
            guard let types = workspace.session.facts(ofModuleAt: path)?.types else { continue }
            let names = Set(types.classes.keys).union(types.exports.keys).union(types.localFunctions.keys)
                .union(types.globals.keys).union(types.classes.values.flatMap { $0.fields.keys })
            guard needle.isEmpty || names.contains(where: { $0.lowercased().contains(needle) }) else { continue }
            let text = documentText(ofFileAt: path, in: workspace)
            found += symbols(of: types, path: path, text: text, module: module.name.rawValue).filter {
                needle.isEmpty || $0.name.lowercased().contains(needle)
            }
            if found.count >= 500 { break }
        }
        return Array(found.prefix(500))
    }

    /// `name:` before each argument of a call whose callee's parameters are known, in the range.
    func inlayHints(_ request: InlayHintRequest) throws -> [InlayHint] {
        let place = TextDocumentPositionParams(document: request.textDocument, position: request.range.start)
        let (workspace, _, text) = try target(place)
        guard let types = ModuleTypes.of(source: text.bytes) else { return [] }
        let catalog = typeCatalog(workspace)
        var hints: [InlayHint] = []
        for site in types.calls {
            let line = site.line - 1
            guard line >= request.range.start.line, line <= request.range.end.line,
                let (member, _) = TypeRules.resolve(site.callee, catalog: catalog), var signature = member.signature
            else { continue }
            if site.isMethodCall, !signature.isMethod, !signature.parameters.isEmpty {
                signature.parameters.removeFirst()
            }
            if !site.isMethodCall, signature.isMethod { continue }
            for (index, argument) in site.arguments.enumerated() where index < signature.parameters.count {
                let position = text.position(
                    line: argument.line, byteColumn: argument.column, encoding: workspaceEncoding)
                hints.append(InlayHint(position: position, label: signature.parameters[index].name + ":"))
            }
        }
        return hints
    }
}
