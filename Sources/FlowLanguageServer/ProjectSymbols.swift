import FlowProject
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import LanguageServerProtocol

/// A symbol as the whole project knows it: one local declaration of one file, or one field of
/// one project module (named by the module's file, however it is required).
enum ProjectSymbol: Hashable {
    case local(path: String, binding: Int)
    case field(modulePath: String, name: String)
}

/// The name under the cursor, resolved: the file's symbols, the occurrence, and the project
/// symbol it is (nil for a global, or a field of a table that is no project module).
struct SymbolAtCursor {
    var workspace: Workspace
    var path: String
    var symbols: ModuleSymbols
    var occurrence: ModuleSymbols.Occurrence
    var symbol: ProjectSymbol?
}

extension LanguageServer {
    /// The text the server knows for `path`: the open buffer, else the file.
    func bytes(ofFileAt path: String, in workspace: Workspace) -> [UInt8] {
        documents[path]?.text.bytes ?? workspace.session.text(ofFileAt: path) ?? []
    }

    func documentText(ofFileAt path: String, in workspace: Workspace) -> DocumentText {
        documents[path]?.text ?? DocumentText(bytes(ofFileAt: path, in: workspace))
    }

    /// The symbols of a file, or nil when its text does not parse.
    func symbols(ofFileAt path: String, in workspace: Workspace) -> ModuleSymbols? {
        ModuleSymbols(source: bytes(ofFileAt: path, in: workspace))
    }

    /// The name at a request's position, or nil when the cursor is on none or the text does not parse.
    func symbol(at params: TextDocumentPositionParams) throws -> SymbolAtCursor? {
        let (workspace, path, text) = try target(params)
        guard let symbols = ModuleSymbols(source: text.bytes) else { return nil }
        let column = DocumentText.byteColumn(
            of: params.position.character, in: text.line(params.position.line), encoding: workspaceEncoding)
        guard let occurrence = symbols.occurrence(line: params.position.line + 1, column: column + 1) else {
            return nil
        }
        return SymbolAtCursor(
            workspace: workspace, path: path, symbols: symbols, occurrence: occurrence,
            symbol: projectSymbol(occurrence.target, in: symbols, path: path, workspace: workspace))
    }

    /// What an occurrence's target is project-wide.
    func projectSymbol(_ target: ModuleSymbols.Target, in symbols: ModuleSymbols, path: String, workspace: Workspace)
        -> ProjectSymbol?
    {
        switch target {
        case .local(let binding):
            return .local(path: path, binding: binding)
        case .global:
            return nil
        case .exportField(let name):
            return .field(modulePath: path, name: name)
        case .field(let owner, let name):
            if let module = symbols.bindings[owner].requiredModule {
                return modulePath(module, workspace).map { .field(modulePath: $0, name: name) }
            }
            return owner == symbols.exportBinding ? .field(modulePath: path, name: name) : nil
        case .requiredField(let module, let name):
            return modulePath(module, workspace).map { .field(modulePath: $0, name: name) }
        }
    }

    /// The file of the project module `require(name)` loads.
    private func modulePath(_ name: String, _ workspace: Workspace) -> String? {
        guard let project = workspace.session.project, let module = Self.module(name, in: project) else { return nil }
        return module.file.standardizedFileURL.path
    }

    /// Every occurrence of `symbol`: in its own file for a local, in every file of the project
    /// for a module's field.
    func occurrences(of symbol: ProjectSymbol, in workspace: Workspace, known: SymbolAtCursor? = nil)
        -> [(path: String, occurrence: ModuleSymbols.Occurrence)]
    {
        let paths: [String]
        let name: String?
        switch symbol {
        case .local(let path, _):
            paths = [path]
            name = nil
        case .field(_, let field):
            paths = workspace.session.analysedFiles
            name = field
        }
        var found: [(String, ModuleSymbols.Occurrence)] = []
        for path in paths {
            var symbols = known.flatMap { $0.path == path ? $0.symbols : nil }
            if symbols == nil {
                // A file that never mentions the field's name is not parsed.
                let bytes = bytes(ofFileAt: path, in: workspace)
                if let name, !Self.contains(bytes, name) { continue }
                symbols = ModuleSymbols(source: bytes)
            }
            guard let symbols else { continue }
            for occurrence in symbols.occurrences
            where projectSymbol(occurrence.target, in: symbols, path: path, workspace: workspace) == symbol {
                found.append((path, occurrence))
            }
        }
        return found
    }

    /// Where `symbol` is declared or given its value: a local's declaration, or each definition
    /// of a field in its module's file.
    func definitions(of symbol: ProjectSymbol, in workspace: Workspace, known: SymbolAtCursor? = nil)
        -> [(path: String, occurrence: ModuleSymbols.Occurrence, symbols: ModuleSymbols)]
    {
        let path: String
        switch symbol {
        case .local(let file, _): path = file
        case .field(let modulePath, _): path = modulePath
        }
        guard
            let symbols = known.flatMap({ $0.path == path ? $0.symbols : nil })
                ?? self.symbols(ofFileAt: path, in: workspace)
        else { return [] }
        return symbols.occurrences.filter {
            $0.isDefinition && projectSymbol($0.target, in: symbols, path: path, workspace: workspace) == symbol
        }.map { (path, $0, symbols) }
    }

    /// Whether `name`'s bytes occur anywhere in `bytes`.
    private static func contains(_ bytes: [UInt8], _ name: String) -> Bool {
        let needle = Array(name.utf8)
        guard let first = needle.first, bytes.count >= needle.count else { return needle.isEmpty }
        var index = 0
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }

    /// Occurrences' places as the client counts them (each file's text read once).
    func locations(_ found: [(path: String, occurrence: ModuleSymbols.Occurrence)], workspace: Workspace)
        -> [Location]
    {
        var texts: [String: DocumentText] = [:]
        return found.map { path, occurrence in
            let text = texts[path] ?? documentText(ofFileAt: path, in: workspace)
            texts[path] = text
            return Location(uri: fileURI(path), range: range(occurrence, text: text))
        }
    }

    func range(_ occurrence: ModuleSymbols.Occurrence, text: DocumentText) -> Range {
        Range(
            start: text.position(line: occurrence.line, byteColumn: occurrence.column, encoding: workspaceEncoding),
            end: text.position(
                line: occurrence.line, byteColumn: occurrence.column + occurrence.length, encoding: workspaceEncoding))
    }

    // MARK: Definition

    /// Go to definition on a local, an upvalue or a module's field; nil when the cursor is on
    /// neither (a global, a string), so the caller answers.
    func symbolDefinition(_ params: TextDocumentPositionParams) throws -> [Location]? {
        guard let found = try symbol(at: params), let symbol = found.symbol else { return nil }
        let definitions = definitions(of: symbol, in: found.workspace, known: found)
        return locations(definitions.map { ($0.path, $0.occurrence) }, workspace: found.workspace)
    }
}
