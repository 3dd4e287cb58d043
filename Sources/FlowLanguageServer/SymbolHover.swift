import LanguageServerProtocol

/// Hover on a local or a module's field: how its function is called, and the `---` comment
/// written above its definition.
extension LanguageServer {
    /// Nil when the cursor is on neither, so the caller answers.
    func symbolHover(_ params: TextDocumentPositionParams) throws -> Hover? {
        guard let found = try symbol(at: params) else { return nil }
        guard let symbol = found.symbol else {
            guard case .global(let name) = found.occurrence.target else { return nil }
            return globalFunctionHover(name, found)
        }
        let text = documentText(ofFileAt: found.path, in: found.workspace)
        let cursorRange = range(found.occurrence, text: text)
        guard let definition = definitions(of: symbol, in: found.workspace, known: found).first else {
            if case .field(let modulePath, let name) = symbol {
                let module = found.workspace.session.module(atPath: modulePath)?.name.rawValue ?? modulePath
                return Hover(
                    contents: MarkupContent(markdown: "field `\(name)`: module `\(module)` does not define it"),
                    range: cursorRange)
            }
            return nil
        }
        let symbols = definition.symbols
        let occurrence = definition.occurrence
        var signature: String
        switch symbol {
        case .local(_, let binding):
            let name = symbols.bindings[binding].name
            if let function = occurrence.function {
                signature = "local function \(name)\(symbols.parameters(of: function))"
            } else if let module = symbols.bindings[binding].requiredModule {
                signature = "local \(name) = require \"\(module)\""
            } else {
                signature = "local \(name)"
            }
        case .field(let modulePath, let name):
            let module = found.workspace.session.module(atPath: modulePath)?.name.rawValue ?? modulePath
            if let function = occurrence.function {
                let separator = symbols.isMethod(function) ? ":" : "."
                signature = "function \(module)\(separator)\(name)\(symbols.parameters(of: function))"
            } else {
                signature = "field \(module).\(name)"
            }
        }
        var markdown = "```lua\n\(signature)\n```"
        let doc = symbols.docComment(above: occurrence.statementLine)
        if !doc.isEmpty { markdown += "\n\n" + doc.joined(separator: "\n") }
        markdown += "\n\n`\(relative(definition.path, found.workspace)):\(occurrence.line)`"
        return Hover(contents: MarkupContent(markdown: markdown), range: cursorRange)
    }

    /// A global function a module defines (`function helper(a, b)`, `helper = function(a) … end`):
    /// its parameters and doc comment. Nil for any other global, which the caller describes.
    private func globalFunctionHover(_ name: String, _ found: SymbolAtCursor) -> Hover? {
        let session = found.workspace.session
        for path in session.analysedFiles where session.facts(ofModuleAt: path)?.globalWriteLocations[name] != nil {
            guard
                let symbols = path == found.path ? found.symbols : self.symbols(ofFileAt: path, in: found.workspace),
                let definition = symbols.occurrences.first(where: {
                    $0.isDefinition && $0.function != nil && $0.target == .global(name)
                }),
                let function = definition.function
            else { continue }
            var markdown = "```lua\nfunction \(name)\(symbols.parameters(of: function))\n```"
            let doc = symbols.docComment(above: definition.statementLine)
            if !doc.isEmpty { markdown += "\n\n" + doc.joined(separator: "\n") }
            markdown += "\n\nglobal, defined in `\(relative(path, found.workspace)):\(definition.line)`"
            let text = documentText(ofFileAt: found.path, in: found.workspace)
            return Hover(contents: MarkupContent(markdown: markdown), range: range(found.occurrence, text: text))
        }
        return nil
    }
}
