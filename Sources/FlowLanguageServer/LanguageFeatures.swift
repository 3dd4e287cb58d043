import FlowAnalysis
import FlowDiagnostics
import FlowPackage
import FlowProject
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import LanguageServerProtocol

/// Go to definition, hover and completion: what the cursor is on (`CursorContext`), answered
/// from the project model and every module's facts.
extension LanguageServer {
    /// The project and the text of a request's document, or the error a client sees for a file
    /// the server does not check.
    func target(_ params: TextDocumentPositionParams) throws -> (
        workspace: Workspace, path: String, text: DocumentText
    ) {
        guard let path = Self.path(ofURI: params.textDocument.uri) else {
            throw ResponseError(
                code: ErrorCode.requestFailed,
                message: "'\(params.textDocument.uri)' is not a file: flowpkg checks files only")
        }
        guard let workspace, workspace.contains(path) else {
            throw ResponseError(
                code: ErrorCode.requestFailed,
                message: workspace.map { "'\(path)' is outside the project at '\($0.root)'" }
                    ?? "'\(path)' is in no flowpkg project (no flowpkg.json in its folder or above)")
        }
        let text =
            documents[path]?.text ?? FileManager.default.contents(atPath: path).map { DocumentText([UInt8]($0)) }
            ?? DocumentText([])
        return (workspace, path, text)
    }

    private func context(_ params: TextDocumentPositionParams, _ text: DocumentText) -> (CursorContext, Int) {
        let line = text.line(params.position.line)
        let column = DocumentText.byteColumn(of: params.position.character, in: line, encoding: workspaceEncoding)
        return (CursorContext.at(column, in: line), column)
    }

    var workspaceEncoding: PositionEncoding { workspace?.encoding ?? .utf16 }

    func fileURI(_ path: String) -> String { Workspace.uri(of: path, documents: documents) }

    private static let fileStart = Range(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))

    // MARK: Definition

    func definition(_ params: TextDocumentPositionParams) throws -> [Location] {
        let (workspace, path, text) = try target(params)
        guard let project = workspace.session.project else { return [] }
        switch context(params, text).0 {
        case .requireString(let name, _, _):
            guard let module = Self.module(name, in: project) else { return [] }
            return [Location(uri: fileURI(module.file.standardizedFileURL.path), range: Self.fileStart)]
        case .resourceName(let name, _, _, let type):
            let matches = project.resources.filter { $0.key.name == name && (type == nil || $0.key.type == type) }
            return matches.map { Location(uri: fileURI($0.file.standardizedFileURL.path), range: Self.fileStart) }
        case .resourceType(let name, let type, _, _):
            guard let resource = project.resource(named: name, type: type) else { return [] }
            return [Location(uri: fileURI(resource.file.standardizedFileURL.path), range: Self.fileStart)]
        case .name(let name, let start, let end, let isField):
            if let locations = try symbolDefinition(params), !locations.isEmpty { return locations }
            if let locations = try typeDefinition(params, start: start, end: end, isField: isField) { return locations }
            guard !isField else { return [] }
            return globalDefinitions(of: name, workspace: workspace, except: path, line: params.position.line)
        case .code, .none:
            return []
        }
    }

    /// The module `require(name)` finds in the project.
    static func module(_ name: String, in project: Project) -> ProjectModule? {
        if let module = project.module(named: name) { return module }
        if name.contains("/"), let found = ModuleName.required(name) { return project.module(named: found.rawValue) }
        return nil
    }

    /// Where the modules of the project assign the global `name` (the current module's own
    /// assignment on the cursor's line excepted: that is the definition itself).
    private func globalDefinitions(of name: String, workspace: Workspace, except current: String, line: Int)
        -> [Location]
    {
        var locations: [Location] = []
        for path in workspace.session.analysedFiles {
            guard let place = workspace.session.facts(ofModuleAt: path)?.globalWriteLocations[name] else { continue }
            if path == current, place.line - 1 == line { continue }
            let text =
                documents[path]?.text
                ?? workspace.session.text(ofFileAt: path).map { DocumentText($0) } ?? DocumentText([])
            let start = text.position(line: place.line, byteColumn: place.column, encoding: workspace.encoding)
            let end = text.position(
                line: place.line, byteColumn: place.column + name.utf8.count, encoding: workspace.encoding)
            locations.append(Location(uri: fileURI(path), range: Range(start: start, end: end)))
        }
        return locations
    }

    // MARK: Hover

    func hover(_ params: TextDocumentPositionParams) throws -> Hover? {
        let (workspace, _, text) = try target(params)
        let (context, _) = self.context(params, text)
        let line = text.line(params.position.line)
        func range(_ start: Int, _ end: Int) -> Range {
            Range(
                start: text.position(
                    line: params.position.line + 1, byteColumn: start + 1, encoding: workspace.encoding),
                end: text.position(line: params.position.line + 1, byteColumn: end + 1, encoding: workspace.encoding))
        }
        switch context {
        case .code(let code, let start, let end):
            guard let explanation = DiagnosticCodes.explanation(of: code) else { return nil }
            return Hover(contents: MarkupContent(markdown: "**\(code)**: \(explanation)"), range: range(start, end))
        case .requireString(let name, _, let start):
            guard let project = workspace.session.project, let module = Self.module(name, in: project) else {
                return nil
            }
            let path = module.file.standardizedFileURL.path
            return Hover(
                contents: MarkupContent(
                    markdown:
                        "**module `\(module.name)`**\n\n`\(relative(path, workspace))`, \(Self.size(of: path, open: documents[path]))"
                ),
                range: range(start, start + name.utf8.count))
        case .resourceName(let name, _, let start, let type):
            guard let project = workspace.session.project else { return nil }
            let matches = project.resources.filter { $0.key.name == name && (type == nil || $0.key.type == type) }
            guard !matches.isEmpty else { return nil }
            let lines = matches.map {
                "**resource `\($0.key.fileName)`**\n\n`\(relative($0.file.standardizedFileURL.path, workspace))`, \(Self.size(of: $0.file.path, open: nil))"
            }
            return Hover(
                contents: MarkupContent(markdown: lines.joined(separator: "\n\n")),
                range: range(start, min(start + name.utf8.count, line.count)))
        case .resourceType(let name, let type, _, let start):
            guard let resource = workspace.session.project?.resource(named: name, type: type) else { return nil }
            return Hover(
                contents: MarkupContent(
                    markdown:
                        "**resource `\(resource.key.fileName)`**\n\n`\(relative(resource.file.standardizedFileURL.path, workspace))`, \(Self.size(of: resource.file.path, open: nil))"
                ),
                range: range(start, start + type.utf8.count))
        case .name(let name, let start, let end, let isField):
            if let hover = try typeHover(params, start: start, end: end, isField: isField) { return hover }
            if let hover = try symbolHover(params) { return hover }
            guard !isField else { return nil }
            let definitions = globalDefinitions(of: name, workspace: workspace, except: "", line: -1)
            guard !definitions.isEmpty else { return nil }
            let places = definitions.map { location in
                let path = Self.path(ofURI: location.uri) ?? location.uri
                return "`\(relative(path, workspace)):\(location.range.start.line + 1)`"
            }
            return Hover(
                contents: MarkupContent(markdown: "**global `\(name)`**, defined in " + places.joined(separator: ", ")),
                range: range(start, end))
        case .none:
            return nil
        }
    }

    func relative(_ path: String, _ workspace: Workspace) -> String {
        path.hasPrefix(workspace.root + "/") ? String(path.dropFirst(workspace.root.count + 1)) : path
    }

    /// "1,234 bytes" for a file, or for an open buffer's current text.
    static func size(of path: String, open document: OpenDocument?) -> String {
        let size: Int
        if let document {
            size = document.text.bytes.count
        } else if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let number = FileManager.size(in: attributes)
        {
            size = Int(number)
        } else {
            return "size unknown"
        }
        return "\(String(grouping: size)) bytes"
    }

    // MARK: Completion

    func completion(_ params: TextDocumentPositionParams) throws -> CompletionList {
        let (workspace, _, text) = try target(params)
        guard let project = workspace.session.project else { return CompletionList(isIncomplete: false, items: []) }
        let (context, column) = self.context(params, text)
        let line = params.position.line
        /// Replaces what was typed of a string, from its start to the cursor.
        func edit(_ label: String, from start: Int) -> TextEdit {
            TextEdit(
                range: Range(
                    start: text.position(line: line + 1, byteColumn: start + 1, encoding: workspace.encoding),
                    end: text.position(line: line + 1, byteColumn: column + 1, encoding: workspace.encoding)),
                newText: label)
        }
        // After `.` or `:`: the object's members, never the globals.
        let lineText = text.line(line)
        if let access = Self.memberAccess(at: column, in: lineText), !CursorContext.isInsideString(column, in: lineText)
        {
            return CompletionList(
                isIncomplete: false, items: memberCompletions(access, text: text, line: line, workspace: workspace))
        }
        var items: [CompletionItem] = []
        switch context {
        case .requireString(_, let prefix, let start):
            let names = project.requireNames.union(Environment.standardModules).filter { $0.hasPrefix(prefix) }
            for name in names.sorted() {
                let detail = project.module(named: name).map { relative($0.file.standardizedFileURL.path, workspace) }
                items.append(
                    CompletionItem(
                        label: name, kind: CompletionItem.Kind.module, detail: detail ?? "Lua standard library",
                        textEdit: edit(name, from: start)))
            }
        case .resourceName(_, let prefix, let start, _):
            var types: [String: [String]] = [:]
            for resource in project.resources where resource.key.name.hasPrefix(prefix) {
                types[resource.key.name, default: []].append(resource.key.type)
            }
            for (name, kinds) in types.sorted(by: { $0.key < $1.key }) {
                items.append(
                    CompletionItem(
                        label: name, kind: CompletionItem.Kind.file,
                        detail: "resource: " + kinds.joined(separator: ", "),
                        textEdit: edit(name, from: start)))
            }
        case .resourceType(let name, _, let prefix, let start):
            let matching = project.resources.filter { $0.key.name == name }
            let candidates = (matching.isEmpty ? project.resources : matching).map(\.key.type)
            for type in Set(candidates).filter({ $0.hasPrefix(prefix) }).sorted() {
                items.append(
                    CompletionItem(
                        label: type, kind: CompletionItem.Kind.constant, detail: "resource type",
                        textEdit: edit(type, from: start)))
            }
        case .name(_, _, _, let isField):
            guard !isField else { break }
            items = globalCompletions(workspace: workspace, project: project)
        case .none:
            // An empty place outside strings: every global.
            if !CursorContext.isInsideString(column, in: lineText) {
                items = globalCompletions(workspace: workspace, project: project)
            }
        case .code:
            break
        }
        return CompletionList(isIncomplete: false, items: items)
    }

    /// The project's globals (assigned by its modules, listed in flowpkg.json) and the environment's.
    private func globalCompletions(workspace: Workspace, project: Project) -> [CompletionItem] {
        var detailByName: [String: String] = [:]
        let environmentName = project.projectFile.environment
        let environment = (Environment.named(environmentName) ?? .lua)
        for name in environment.globals { detailByName[name] = "\(environment.name) environment" }
        for name in project.projectFile.globals { detailByName[name] = "global of flowpkg.json" }
        for (module, path) in workspace.session.moduleFiles {
            for name in workspace.session.facts(ofModuleAt: path)?.globalWrites ?? [] where detailByName[name] == nil {
                detailByName[name] = "global defined in module \(module.name)"
            }
        }
        return detailByName.sorted { $0.key < $1.key }.map {
            CompletionItem(label: $0.key, kind: CompletionItem.Kind.variable, detail: $0.value)
        }
    }
}
