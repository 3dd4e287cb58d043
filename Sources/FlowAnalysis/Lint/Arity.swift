import LuaSyntax

/// A function whose parameters are known: a local function, or a field of a module's table set
/// once to a function (`function M.f(a, b)`, `M.f = function(a, b)`, `function M:m(a)`).
public struct FunctionSignature: Sendable, Equatable {
    public var name: String
    /// The parameters' names, `self` first for a method.
    public var parameters: [String]
    public var takesVararg: Bool
    /// Per parameter, the line where the function's body fails when it is nil (indexes it,
    /// calls it, does arithmetic on it) before anything could test it; 0 where not.
    public var failsWhenNil: [Int32]
    public var line: Int32
}

/// A call of a field of a required project module: `B.f(x)`, `B:m(x)`.
public struct ModuleCall: Sendable, Equatable {
    public var module: String
    public var field: String
    /// The values the call passes, the table of a `:` call counted.
    public var arguments: Int
    /// A `:` call: the table is passed as `self`.
    public var passesSelf: Bool
    public var line: Int32
    public var column: Int32
}

/// A call whose argument count does not fit the function it calls (FP482, FP483).
public struct ArityFinding: Sendable, Equatable {
    public var isMissingArgument: Bool
    public var message: String
    public var hint: String
    public var line: Int32
    public var column: Int32
}

/// What the lint walk learns about functions and their calls.
struct ArityState {
    /// Local functions by variable.
    var locals: [Int32: FunctionSignature] = [:]
    /// Functions set on fields of local tables: (variable, field, signature).
    var fields: [(variable: Int32, field: String, signature: FunctionSignature)] = []
    /// `return {name = f}`: the fields the main chunk's constructor gives locals' values.
    var returned: [(field: String, variable: Int32)] = []
    /// Calls of a local (field "") or of a local table's field, with a fixed argument count.
    var calls: [(variable: Int32, field: String, arguments: Int, passesSelf: Bool, line: Int32, column: Int32)] = []
}

/// The state of the passes the walk feeds besides its own: kept by reference, so that the
/// walker stays cheap to copy (Swift copies it for some calls of its non-mutating methods).
final class LintPasses {
    var valueFlow = ValueFlow()
    var arity = ArityState()
}

/// The arity checks (FP482, FP483): a call with a fixed number of values (its last argument not
/// a call nor `...`) to a function whose parameters are known and that takes no `...`. Too many
/// values is always reported (the extra ones are dropped); too few only when a missing
/// parameter is one the function's body fails on when nil, before anything tests it.
extension ModuleLinter {
    var arity: ArityState {
        get { passes.arity }
        nonmutating _modify { yield &passes.arity }
    }

    /// `local function f(...)`, `local f = function(...)`.
    mutating func noteFunctionValue(of variable: Int32, value: Int32) {
        guard nodes[Int(value)].kind == .function else { return }
        // Made first: a mutating call inside the write to `arity` would copy the whole walker.
        let made = signature(of: value, name: text(variables[Int(variable)].symbol), method: false)
        arity.locals[variable] = made
    }

    /// `function t.f(...)`, `function t:m(...)` where t is a local table.
    mutating func noteFieldFunction(target: Int32, function: Int32) {
        let node = nodes[Int(target)]
        guard node.kind == .index, nodes[Int(node.a)].kind == .name, nodes[Int(node.b)].kind == .string else { return }
        let bound = scopes.binding(of: nodes[Int(node.a)].a)
        guard bound >= 0 else { return }
        let field = text(nodes[Int(node.b)].a)
        let method = nodes[Int(function)].op & 2 != 0
        let made = signature(of: function, name: field, method: method)
        arity.fields.append((bound, field, made))
    }

    /// `t.f = function(...)` in an assignment.
    mutating func noteFieldFunctions(_ assignment: SyntaxNode) {
        let count = min(Int(assignment.b), Int(assignment.c))
        for position in 0..<count {
            let value = lists[Int(assignment.a + assignment.b) + position]
            if nodes[Int(value)].kind == .function {
                noteFieldFunction(target: lists[Int(assignment.a) + position], function: value)
            }
        }
    }

    /// `return {name = f, ...}` at the end of the main chunk: f's signature is the field's.
    mutating func noteReturnedFunctions(_ table: SyntaxNode) {
        for index in Int(table.a)..<Int(table.a + table.b) {
            let field = nodes[Int(lists[index])]
            guard field.kind == .keyedField, nodes[Int(field.a)].kind == .string, nodes[Int(field.b)].kind == .name
            else { continue }
            let bound = scopes.binding(of: nodes[Int(field.b)].a)
            if bound >= 0 { arity.returned.append((text(nodes[Int(field.a)].a), bound)) }
        }
    }

    /// A call in the walk (`link` a `call` or `methodCall`): noted when it passes a fixed number of values.
    mutating func noteCall(_ link: Int32) {
        let node = nodes[Int(link)]
        let arguments = node.kind == .call ? Int(node.c) : Int(node.c) + 1
        if node.c > 0 {
            let last = node.kind == .call ? lists[Int(node.b + node.c - 1)] : lists[Int(node.b + node.c)]
            if syntax.isMultipleValued(last) { return }
        }
        let callee = nodes[Int(node.a)]
        if node.kind == .call, callee.kind == .name {
            let bound = scopes.binding(of: callee.a)
            if bound >= 0 { arity.calls.append((bound, "", arguments, false, callee.line, callee.column)) }
            return
        }
        let object: SyntaxNode
        let field: String
        if node.kind == .call {
            guard callee.kind == .index, nodes[Int(callee.b)].kind == .string else { return }
            object = nodes[Int(callee.a)]
            field = text(nodes[Int(callee.b)].a)
        } else {
            object = callee
            field = text(nodes[Int(lists[Int(node.b)])].a)
        }
        guard object.kind == .name else { return }
        let bound = scopes.binding(of: object.a)
        guard bound >= 0 else { return }
        arity.calls.append((bound, field, arguments, node.kind == .methodCall, object.line, object.column))
    }

    /// At the end of the chunk: judges the calls of locals, and notes the signatures of the
    /// module's own functions and its calls of required modules.
    mutating func finishArity() {
        defer { arity = ArityState() }
        var fieldSignatures: [Int32: [String: FunctionSignature]] = [:]
        var writes: [Int32: [String: Int]] = [:]
        for (variable, field, signature) in arity.fields {
            fieldSignatures[variable, default: [:]][field] = signature
        }
        for write in fieldWriteLog where fieldSignatures[write.variable] != nil {
            writes[write.variable, default: [:]][text(write.key), default: 0] += 1
        }
        /// A local table's field function, when nothing else can have replaced it.
        func fieldSignature(_ variable: Int32, _ field: String) -> FunctionSignature? {
            let table = variables[Int(variable)]
            guard let signature = fieldSignatures[variable]?[field], writes[variable]?[field] == 1, !table.assigned,
                !table.computedWrite, table.holdsNewTable, !table.readWhole || variable == returnedVariable
            else { return nil }
            return signature
        }
        for call in arity.calls {
            let variable = variables[Int(call.variable)]
            if call.field.isEmpty {
                guard !variable.assigned, let signature = arity.locals[call.variable] else { continue }
                judge(call: call, to: signature)
            } else if variable.requiredModule >= 0 {
                if !variable.assigned {
                    facts.moduleCalls.append(
                        ModuleCall(
                            module: text(variable.requiredModule), field: call.field, arguments: call.arguments,
                            passesSelf: call.passesSelf, line: call.line, column: call.column))
                }
            } else if let signature = fieldSignature(call.variable, call.field) {
                judge(call: call, to: signature)
            }
        }
        if environmentSymbol < 0 {
            // A field named twice in the constructor is the later one's: leave both out.
            var named: [String: Int] = [:]
            for (field, _) in arity.returned { named[field, default: 0] += 1 }
            for (field, variable) in arity.returned where named[field] == 1 && !variables[Int(variable)].assigned {
                if var signature = arity.locals[variable] {
                    signature.name = field
                    facts.exportedFunctions.append(signature)
                }
            }
        }
        if returnedVariable >= 0, environmentSymbol < 0 {
            for field in (fieldSignatures[returnedVariable] ?? [:]).keys.sorted() {
                if let signature = fieldSignature(returnedVariable, field) { facts.exportedFunctions.append(signature) }
            }
        }
    }

    mutating func judge(
        call: (variable: Int32, field: String, arguments: Int, passesSelf: Bool, line: Int32, column: Int32),
        to signature: FunctionSignature
    ) {
        if let finding = Self.arityFinding(
            arguments: call.arguments, passesSelf: call.passesSelf, signature: signature, line: call.line,
            column: call.column, file: nil)
        {
            facts.arityFindings.append(finding)
        }
    }

    /// The finding for a call passing `arguments` values to `signature`'s function, if any.
    static func arityFinding(
        arguments: Int, passesSelf: Bool, signature: FunctionSignature, line: Int32, column: Int32, file: String?
    ) -> ArityFinding? {
        let count = signature.parameters.count
        let place = file.map { "\($0):\(signature.line)" } ?? "line \(signature.line)"
        let list = signature.parameters.joined(separator: ", ")
        if arguments > count, !signature.takesVararg {
            // A `:` call passes self itself: count what the caller writes.
            let shown = passesSelf ? (count - 1, arguments - 1) : (count, arguments)
            let besides = passesSelf ? " besides self" : ""
            return ArityFinding(
                isMissingArgument: false,
                message:
                    "'\(signature.name)' takes \(shown.0) argument\(shown.0 == 1 ? "" : "s")\(besides) but the call passes \(shown.1)",
                hint: "the extra values are dropped: '\(signature.name)(\(list))' is defined at \(place)", line: line,
                column: column)
        }
        guard arguments < count,
            let missing = (arguments..<count).first(where: { signature.failsWhenNil[$0] != 0 })
        else { return nil }
        let parameter = signature.parameters[missing]
        return ArityFinding(
            isMissingArgument: true,
            message: "the call passes no '\(parameter)' to '\(signature.name)', which fails when it is nil",
            hint:
                "'\(signature.name)(\(list))' (\(place)) uses '\(parameter)' on line \(signature.failsWhenNil[missing]) without testing it",
            line: line, column: column)
    }

    /// A function expression's signature: its parameters and, for each, where its body fails
    /// when it is nil.
    func signature(of function: Int32, name: String, method: Bool) -> FunctionSignature {
        let node = nodes[Int(function)]
        var symbols: [Int32] = []
        var names: [String] = []
        if method {
            symbols.append(selfSymbol)
            names.append("self")
        }
        for index in Int(node.a)..<Int(node.a + node.b) {
            symbols.append(nodes[Int(lists[index])].a)
            names.append(text(nodes[Int(lists[index])].a))
        }
        return FunctionSignature(
            name: name, parameters: names, takesVararg: node.op & 1 != 0,
            failsWhenNil: nilFailures(in: node.c, of: symbols), line: node.line)
    }

}
