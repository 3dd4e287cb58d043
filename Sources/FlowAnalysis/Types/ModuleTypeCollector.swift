import LuaSyntax

/// Collects a module's `ModuleTypes` in one walk of its tree with its annotations: what it
/// declares, the calls and field reads to check against the project's types, and the findings
/// that need nothing but the module (return counts, calls of values that are no function).
/// Statements are in ModuleTypeCollector+Statements.swift, expressions in +Expressions.
struct ModuleTypeCollector {
    typealias NodeID = SyntaxTree.NodeID

    /// One local declaration.
    struct Local {
        var name: String
        /// The type `---@type`, `---@param` or a class binding declares; nil when none.
        var declared: LuaType?
        /// The local table it holds (an index into `tables`).
        var table: Int?
        var requiredModule: String?
        var signature: FunctionType?
        var deprecation: String?
        var doc = ""
        /// The literal type of its one value (a number, a string), when it has one.
        var literal: LuaType?
        /// Assigned again after its declaration, anywhere.
        var isReassigned = false
        var line = 0
        var column = 0
    }

    /// A table a local holds: its fields as the code sets them.
    struct Table {
        var fields: [String: TypeMember] = [:]
        var className: String?
    }

    /// The chunk, read in place (the parser's buffers, or a `SyntaxTree`'s arrays).
    let tree: SyntaxBuffers
    /// The chunk's source bytes (numerals point into them).
    let source: UnsafeRawBufferPointer
    let annotations: AnnotationReader
    /// Whether the chunk has any annotation block: most have none, and need no lookup per statement.
    let hasBlocks: Bool
    var types = ModuleTypes()
    var locals: [Local] = []
    /// The locals declared in the source (not `self`), in order.
    var declaredLocals: [Int] = []
    var tables: [Table] = []
    /// Symbol -> the local it names here, or -1 (an array the size of the chunk's symbols).
    private var visible: [Int32]
    private var undo: [(symbol: Int32, previous: Int32)] = []
    /// The nodes `walkExpression` has still to walk, shared by its nested calls (each works above its own base).
    var expressionStack: [NodeID] = []
    /// The functions being walked, innermost last: their annotated signature, when they have one.
    var functions: [FunctionType?] = []
    /// The table a method's `self` is, innermost last.
    var selfTables: [Int?] = []
    /// Calls of a local whose value may be no function: checked when the walk is done.
    var localCalls: [(local: Int, line: Int, column: Int)] = []
    /// Calls of a field of a local table, resolved when every field is known.
    var tableCalls: [(table: Int, name: String, site: CallSite)] = []
    /// Whether a local with a declared type was declared yet: until one is, no condition narrows.
    var hasDeclaredLocals = false
    /// Locals' types as the conditions around narrow them (ModuleTypeCollector+Narrowing.swift).
    var narrowed: [Int: LuaType] = [:]
    var narrowingUndo: [(local: Int, previous: LuaType?)] = []
    /// Names assigned anywhere in the chunk, by symbol: their locals are never narrowed.
    let assignedSymbols: [Bool]
    let requireSymbol: Int32?
    let selfSymbol: Int32?
    let setmetatableSymbol: Int32?
    /// Where an editor asks for a local's type (`ModuleTypes.probed`).
    var probe: (line: Int, column: Int)?

    init(tree: SyntaxBuffers, source: UnsafeRawBufferPointer, annotations: AnnotationReader) {
        self.tree = tree
        self.source = source
        self.annotations = annotations
        hasBlocks = !annotations.blocks.isEmpty
        visible = Array(repeating: -1, count: tree.symbolCount)
        requireSymbol = tree.symbol(named: "require")
        selfSymbol = tree.symbol(named: "self")
        setmetatableSymbol = tree.symbol(named: "setmetatable")
        let (assigned, localCount) = Self.assignedSymbols(of: tree)
        assignedSymbols = assigned
        // Every local the chunk declares (and a `self` per method), in one allocation.
        locals.reserveCapacity(localCount)
        declaredLocals.reserveCapacity(localCount)
    }

    /// The types of a parsed chunk with its annotations.
    static func collect(
        tree: SyntaxTree, annotations: AnnotationReader, probe: (line: Int, column: Int)? = nil
    ) -> ModuleTypes {
        tree.nodes.withUnsafeBufferPointer { nodes in
            tree.lists.withUnsafeBufferPointer { lists in
                tree.source.withUnsafeBytes { source in
                    collect(
                        tree: SyntaxBuffers(nodes: nodes, lists: lists, symbols: tree.symbolTable, root: tree.root),
                        source: source, annotations: annotations, probe: probe)
                }
            }
        }
    }

    /// The types of a chunk read in place (the parser's buffers) with its annotations.
    static func collect(
        tree: SyntaxBuffers, source: UnsafeRawBufferPointer, annotations: AnnotationReader,
        probe: (line: Int, column: Int)? = nil
    ) -> ModuleTypes {
        var collector = ModuleTypeCollector(tree: tree, source: source, annotations: annotations)
        collector.probe = probe
        collector.declareAnnotations()
        collector.functions.append(nil)
        collector.selfTables.append(nil)
        collector.walkBlock(tree.root, depth: 0)
        collector.finish()
        return collector.types
    }

    // MARK: Scopes

    mutating func declare(_ localName: NodeID, _ local: Local) -> Int {
        let symbol = tree[localName].a
        declaredLocals.append(locals.count)
        var local = local
        local.line = Int(tree[localName].line)
        local.column = Int(tree[localName].column)
        if local.declared != nil { hasDeclaredLocals = true }
        locals.append(local)
        undo.append((symbol, visible[Int(symbol)]))
        visible[Int(symbol)] = Int32(locals.count - 1)
        return locals.count - 1
    }

    mutating func declareSelf(table: Int?, className: String?) {
        guard let selfSymbol else { return }
        var local = Local(name: "self", table: table)
        if let className {
            local.declared = .named(className)
            hasDeclaredLocals = true
        }
        locals.append(local)
        undo.append((selfSymbol, visible[Int(selfSymbol)]))
        visible[Int(selfSymbol)] = Int32(locals.count - 1)
    }

    @inline(__always) func resolve(_ symbol: Int32) -> Int? {
        let local = visible[Int(symbol)]
        return local >= 0 ? Int(local) : nil
    }

    var scopeMark: Int { undo.count }

    mutating func closeScope(_ mark: Int) {
        while undo.count > mark {
            let (symbol, previous) = undo.removeLast()
            visible[Int(symbol)] = previous
        }
    }

    // MARK: Annotations

    /// Classes, aliases and enums, wherever their blocks are; malformed annotations as findings.
    private mutating func declareAnnotations() {
        types.isMeta = annotations.isMeta
        types.silenced = annotations.silenced
        types.disabledFrom = annotations.disabledFrom
        for problem in annotations.problems {
            types.findings.append(
                TypeFinding(
                    kind: .malformedAnnotation, line: problem.line, column: problem.column, message: problem.message))
        }
        for block in annotations.blocks.values {
            var current: String?
            for annotation in block.annotations {
                switch annotation.kind {
                case .class(let name, let parents, _):
                    current = name
                    var definition =
                        types.classes[name] ?? ClassDefinition(name: name, parents: [], line: annotation.line)
                    definition.parents += parents
                    definition.doc = block.documentation
                    if block.isGeneric { definition.isOpen = true }
                    types.classes[name] = definition
                case .field(let name, let type, _, let doc):
                    guard let current else { continue }
                    guard let name else {
                        types.classes[current]?.isOpen = true
                        continue
                    }
                    types.classes[current]?.fields[name] = TypeMember(
                        name: name, type: type, doc: doc, line: annotation.line, column: annotation.column)
                    if !type.acceptsNil { types.classes[current]?.requiredFields.insert(name) }
                case .alias(let name, let type):
                    types.aliases[name] = type
                case .enum(let name):
                    types.aliases[name] = .unknown
                default:
                    break
                }
            }
        }
    }

    /// The annotation block describing the statement on `line`.
    @inline(__always) func block(at line: Int32) -> AnnotationBlock? {
        hasBlocks ? annotations.blocks[Int(line)] : nil
    }

    /// The signature of the `function` node `function`, from the block above its statement.
    func signature(of function: NodeID, block: AnnotationBlock?) -> FunctionType? {
        guard let block else { return nil }
        let node = tree[function]
        let names = tree.list(node.a, node.b).map { tree.text(of: $0) }
        let isMethod = node.op & 2 != 0
        return block.signature(parameterNames: names, isVariadic: node.op & 1 != 0, isMethod: isMethod)
    }

    /// A member for a field or global set to `value` on `line`.
    func member(_ name: String, value: NodeID?, block: AnnotationBlock?, at node: SyntaxNode) -> TypeMember {
        var type = value.map { literalType($0) ?? .unknown } ?? .unknown
        if let value, tree[value].kind == .function {
            let signature = self.signature(of: value, block: block) ?? plainSignature(of: value)
            type = .function(signature)
        }
        if let declared = block?.declaredType { type = declared }
        return TypeMember(
            name: name, type: type, doc: block?.documentation ?? "", line: Int(node.line), column: Int(node.column),
            deprecation: block?.deprecation)
    }

    /// The source text of a `number` node.
    func numeral(_ id: NodeID) -> String {
        let node = tree[id]
        return String(decoding: source[Int(node.a)..<Int(node.a + node.b)], as: UTF8.self)
    }

    /// A function's parameters by name, of unknown types: for completion and hover.
    func plainSignature(of function: NodeID) -> FunctionType {
        let node = tree[function]
        let names = tree.list(node.a, node.b).map { tree.text(of: $0) }
        return FunctionType(
            parameters: names.map { FunctionType.Parameter(name: $0, type: .unknown) }, isVariadic: node.op & 1 != 0,
            isMethod: node.op & 2 != 0)
    }

    // MARK: Finishing

    /// Resolves what waited for the whole module: calls of table fields and locals, class tables.
    private mutating func finish() {
        for index in declaredLocals {
            let local = locals[index]
            if let table = local.table {
                types.localTables[local.name] = tables[table].fields
                if let className = tables[table].className { types.localClasses[local.name] = className }
            } else if case .named(let className) = local.declared {
                types.localClasses[local.name] = className
            }
            if let module = local.requiredModule { types.requiredModules[local.name] = module }
            if let signature = local.signature {
                types.localFunctions[local.name] = TypeMember(
                    name: local.name, type: .function(signature), doc: local.doc, line: local.line,
                    column: local.column, deprecation: local.deprecation)
            }
        }
        for table in tables {
            guard let className = table.className else { continue }
            // An `__index` function answers any key: the class's fields are not all known.
            if case .function = table.fields["__index"]?.type {
                types.classes[className]?.isOpen = true
                types.openedClasses.insert(className)
            }
            for (name, field) in table.fields where types.classes[className]?.fields[name] == nil {
                types.classes[className]?.fields[name] = field
            }
        }
        for (table, name, site) in tableCalls {
            var site = site
            if let field = tables[table].fields[name], let signature = field.signature {
                site.callee = .signature(signature, name: name, deprecation: field.deprecation)
            } else if let className = tables[table].className {
                site.callee = .classField(className: className, name: name)
            } else {
                continue
            }
            types.calls.append(site)
        }
        for (index, line, column) in localCalls {
            let local = locals[index]
            guard !local.isReassigned, local.declared == nil, let literal = local.literal else { continue }
            types.findings.append(
                TypeFinding(
                    kind: .notCallable, line: line, column: column,
                    message:
                        "'\(local.name)' is called, but it holds a \(TypeRelations.kindName(literal)), not a function"))
        }
    }
}
