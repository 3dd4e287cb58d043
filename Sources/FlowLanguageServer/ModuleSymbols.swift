import LuaSyntax

/// Every name a module's syntax tree mentions, resolved by Lua's scoping rules: a local (each
/// declaration its own binding, so a shadowing local is another symbol), a global, or a field of
/// a local table (`Banner.frame`, `Banner:show()`, `{ frame = … }`). The index go to
/// definition, references, rename and hover work from.
struct ModuleSymbols {
    /// What one occurrence of a name refers to.
    enum Target: Hashable {
        /// The local declared by `bindings[index]`.
        case local(Int)
        case global(String)
        /// Field `name` of the table the local `bindings[owner]` holds.
        case field(owner: Int, name: String)
        /// Field `name` of the table the chunk returns (`return { name = … }`).
        case exportField(String)
        /// Field `name` of `require "module"` itself (`require("Banner").frame`).
        case requiredField(module: String, name: String)
    }

    /// A name in the source: 1-based line, 1-based byte column, byte length.
    struct Occurrence {
        var line: Int
        var column: Int
        var length: Int
        var target: Target
        /// True where the name is declared or given its value (`local x`, `function M.f`,
        /// `M.f = …`, `{ f = … }`).
        var isDefinition = false
        /// The function a definition assigns, for hover.
        var function: SyntaxTree.NodeID?
        /// The line of the statement holding a definition: its doc comment ends above it.
        var statementLine = 0

        func contains(line: Int, column: Int) -> Bool {
            self.line == line && column >= self.column && column <= self.column + length
        }
    }

    /// One local declaration.
    struct Binding {
        var name: String
        /// Where it is declared; line 0 for a method's implicit `self`.
        var line: Int
        var column: Int
        /// `local x = require "m"`: the module the local holds.
        var requiredModule: String?
        /// A method's `self` (`function M:show()`): the local M, whose fields `self.f` reads.
        var selfOf: Int?
    }

    let tree: SyntaxTree
    private(set) var occurrences: [Occurrence] = []
    private(set) var bindings: [Binding] = []
    /// The local the chunk returns (`return M` at its end), when it returns one.
    private(set) var exportBinding: Int?

    /// The symbols of `source`, or nil when it does not parse.
    init?(source: [UInt8]) {
        guard let tree = try? LuaParser.parse(source) else { return nil }
        self.init(tree: tree)
    }

    init(tree: SyntaxTree) {
        self.tree = tree
        var walker = ModuleSymbolWalker(tree: tree)
        walker.walkChunk()
        occurrences = walker.occurrences
        bindings = walker.bindings
        exportBinding = walker.exportBinding
    }

    /// The occurrence at a 1-based line and byte column.
    func occurrence(line: Int, column: Int) -> Occurrence? {
        occurrences.first { $0.contains(line: line, column: column) }
    }

    /// A function's parameter list as written: `(width, height, ...)`.
    func parameters(of function: SyntaxTree.NodeID) -> String {
        let node = tree[function]
        var names = tree.list(node.a, node.b).map { tree.text(of: $0) }
        if node.op & 1 != 0 { names.append("...") }
        return "(" + names.joined(separator: ", ") + ")"
    }

    /// Whether a function was written `function T:name()` (it takes `self` unseen).
    func isMethod(_ function: SyntaxTree.NodeID) -> Bool { tree[function].op & 2 != 0 }

    /// The `---` comment lines right above `line` (1-based), without their dashes.
    func docComment(above line: Int) -> [String] {
        var lines: [String] = []
        var current = line - 1
        while current >= 1, let text = sourceLine(current) {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("---") else { break }
            var body = trimmed.dropFirst(3)
            if body.first == " " { body = body.dropFirst() }
            lines.append(String(body))
            current -= 1
        }
        return lines.reversed()
    }

    private func sourceLine(_ line: Int) -> String? {
        var start = 0
        var number = 1
        let source = tree.source
        while number < line {
            guard let newline = source[start...].firstIndex(of: 0x0A) else { return nil }
            start = newline + 1
            number += 1
        }
        let end = source[start...].firstIndex(of: 0x0A) ?? source.count
        var text = String(decoding: source[start..<end], as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
