import LanguageServerProtocol

/// Find references and rename, for locals (scope by scope: a shadowing local is another
/// symbol) and for the fields of the project's modules (in every file that requires them).
extension LanguageServer {
    func references(_ params: ReferenceParams) throws -> [Location] {
        guard let found = try symbol(at: params.place), let symbol = found.symbol else { return [] }
        let includeDeclaration = params.context?.includeDeclaration ?? true
        let all = occurrences(of: symbol, in: found.workspace, known: found)
        return locations(all.filter { includeDeclaration || !$0.occurrence.isDefinition }, workspace: found.workspace)
    }

    /// The name's range and text when it can be renamed: a local the source declares, or a
    /// field some project module defines. Nil (the client then says it cannot) otherwise.
    func prepareRename(_ params: TextDocumentPositionParams) throws -> PrepareRenameResult? {
        guard let found = try renameable(params) else { return nil }
        let text = documentText(ofFileAt: found.path, in: found.workspace)
        let name: String
        switch found.symbol {
        case .local(_, let binding): name = found.symbols.bindings[binding].name
        case .field(_, let field): name = field
        case nil: return nil
        }
        return PrepareRenameResult(range: range(found.occurrence, text: text), placeholder: name)
    }

    func rename(_ params: RenameParams) throws -> WorkspaceEdit? {
        guard let found = try renameable(params.place), let symbol = found.symbol else {
            throw ResponseError(
                code: ErrorCode.requestFailed,
                message:
                    "nothing to rename here: flowpkg renames locals and the fields a project module defines")
        }
        guard Self.isLuaName(params.newName) else {
            throw ResponseError(
                code: ErrorCode.invalidParams,
                message:
                    "'\(params.newName)' is not a Lua name: use letters, digits and '_', not starting with a digit, and no keyword"
            )
        }
        let all = occurrences(of: symbol, in: found.workspace, known: found)
        try checkRename(symbol, to: params.newName, occurrences: all, found)
        var changes: [String: [TextEdit]] = [:]
        for location in locations(all, workspace: found.workspace) {
            changes[location.uri, default: []].append(TextEdit(range: location.range, newText: params.newName))
        }
        return WorkspaceEdit(changes: changes)
    }

    /// Refuses a rename that would change what a name means: a field the module already
    /// defines under the new name, or a local the new name would capture or be captured by
    /// (checked by renaming the text and resolving its names again).
    private func checkRename(
        _ symbol: ProjectSymbol, to newName: String,
        occurrences: [(path: String, occurrence: ModuleSymbols.Occurrence)], _ found: SymbolAtCursor
    ) throws {
        switch symbol {
        case .field(let modulePath, let name):
            guard newName != name else { return }
            let clash = definitions(of: .field(modulePath: modulePath, name: newName), in: found.workspace)
            guard let first = clash.first else { return }
            throw ResponseError(
                code: ErrorCode.requestFailed,
                message:
                    "\(relative(modulePath, found.workspace)) already defines '\(newName)' (line \(first.occurrence.line)): renaming '\(name)' to it would make them one field"
            )
        case .local(let path, let binding):
            let name = found.symbols.bindings[binding].name
            guard newName != name else { return }
            let text = documentText(ofFileAt: path, in: found.workspace)
            var bytes = text.bytes
            let sites = occurrences.map(\.occurrence).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
            for site in sites.reversed() {
                let start = text.lineStarts[site.line - 1] + site.column - 1
                bytes.replaceSubrange(start..<start + site.length, with: newName.utf8)
            }
            guard let renamed = ModuleSymbols(source: bytes) else { return }
            // Where each renamed name now is: later names on a line move by the length change.
            let shift = newName.utf8.count - name.utf8.count
            var moved: Set<[Int]> = []
            var line = 0
            var before = 0
            for site in sites {
                if site.line != line { (line, before) = (site.line, 0) }
                moved.insert([site.line, site.column + before * shift])
                before += 1
            }
            let targets = Set(
                renamed.occurrences.filter { moved.contains([$0.line, $0.column]) }.map(\.target))
            let captured = targets.first.map { target in
                renamed.occurrences.filter { $0.target == target }.count
            }
            guard targets.count == 1, case .local = targets.first, captured == sites.count else {
                throw ResponseError(
                    code: ErrorCode.requestFailed,
                    message:
                        "renaming '\(name)' to '\(newName)' would change what a name means: '\(newName)' is already used where '\(name)' is visible"
                )
            }
        }
    }

    /// The symbol at the cursor when rename may change it: not a method's unseen `self`, not a
    /// field no project module defines (it would rename uses of something that is not there).
    private func renameable(_ params: TextDocumentPositionParams) throws -> SymbolAtCursor? {
        guard let found = try symbol(at: params), let symbol = found.symbol else { return nil }
        switch symbol {
        case .local(_, let binding):
            return found.symbols.bindings[binding].line > 0 ? found : nil
        case .field:
            return definitions(of: symbol, in: found.workspace, known: found).isEmpty ? nil : found
        }
    }

    private static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]

    static func isLuaName(_ text: String) -> Bool {
        guard let first = text.utf8.first, !(0x30...0x39).contains(first), !keywords.contains(text) else {
            return false
        }
        return text.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                || (0x61...0x7A).contains($0)
        }
    }
}
