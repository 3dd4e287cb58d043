/// Statements and the registers their expressions need, as bounds on what `lcode.c` uses.
extension ChunkScreen {
    mutating func visitStatement(_ statement: SyntaxNode) throws(Refusal) {
        function.nodes += 1
        switch statement.kind {
        case .local:
            let names = Int(statement.b)
            try checkActive(adding: names)
            try checkRegisters(max(names, listNeed(statement.a, from: names, count: Int(statement.c))))
            for index in 0..<names { declare(node(item(statement.a, index))) }
            try addLocals(names)
        case .localFunction:
            declare(node(statement.a))
            try addLocals(1)
            try visitFunction(statement.b)
            try checkRegisters(1)
        case .assignment:
            try visitAssignment(statement)
        case .callStatement:
            try checkRegisters(need(statement.a))
        case .doBlock:
            try visitBlock(statement.a)
        case .whileLoop:
            try checkRegisters(need(statement.a))
            function.loopDepth += 1
            try visitLoopBody(statement.b)
            function.loopDepth -= 1
        case .repeatLoop:
            function.loopDepth += 1
            try visitBlock(statement.a, endsWithUntil: true, condition: statement.b)
            function.loopDepth -= 1
        case .ifStatement:
            for pair in 0..<Int(statement.b) {
                try checkRegisters(need(item(statement.a, 2 * pair)))
                try visitBlock(item(statement.a, 2 * pair + 1))
            }
            if statement.c >= 0 { try visitBlock(statement.c) }
        case .numericFor:
            // Three hidden control locals, the loop variable; a missing step takes a register.
            let limits = Int(statement.b) - 1
            try checkRegisters(max(listNeed(statement.a, from: 1, count: limits), 3))
            try visitFor(names: 1, list: statement.a, hidden: 3, body: statement.c)
        case .genericFor:
            // Four hidden control locals, and three registers more to call the iterator.
            let names = Int(statement.b)
            try checkRegisters(max(listNeed(statement.a, from: names, count: Int(statement.c)), 4) + 3)
            let body = item(statement.a, names + Int(statement.c))
            try visitFor(names: names, list: statement.a, hidden: 4, body: body)
        case .functionStatement:
            let target = node(statement.a)
            if target.kind == .name, isReadOnly(target.a) {
                throw Refusal(reason: "a function assigned to a const variable")
            }
            try checkRegisters(need(statement.a) + 1)
            try visitFunction(statement.b)
        case .returnStatement:
            try checkRegisters(listNeed(statement.a, from: 0, count: Int(statement.b)))
        case .breakStatement:
            if function.loopDepth == 0 { throw Refusal(reason: "break outside a loop") }
        case .gotoStatement:
            // A label already visible in the function is a jump back; any other waits for its label.
            if !labels[function.labelStart...].contains(where: { $0.symbol == statement.a }) {
                if labels.count + gotos.count >= Self.maximumLabels {
                    throw Refusal(reason: "too many labels and gotos")
                }
                gotos.append(Label(symbol: statement.a, level: function.active))
            }
        case .label:
            try addLabel(statement.a, level: function.active, pendingFrom: gotos.count)
        default:
            throw Refusal(reason: "an unexpected statement")
        }
    }

    mutating func visitLoopBody(_ body: Int32) throws(Refusal) {
        let before = function.nodes
        try visitBlock(body)
        if function.nodes - before > Self.maximumLoopBodyNodes { throw Refusal(reason: "a loop body too long") }
    }

    /// A `for` loop's hidden locals and `names` (the first of `list`), then its body.
    mutating func visitFor(names: Int, list: Int32, hidden: Int, body: Int32) throws(Refusal) {
        let scopeMark = scope.mark
        try addLocals(hidden + names)
        for index in 0..<names { declare(node(item(list, index))) }
        function.loopDepth += 1
        try visitLoopBody(body)
        function.loopDepth -= 1
        function.active -= hidden + names
        scope.leave(to: scopeMark)
    }

    mutating func visitAssignment(_ statement: SyntaxNode) throws(Refusal) {
        // Each target keeps its table and key in registers until the values are stored, and a
        // target a later one may change takes a copy.
        var kept = 0
        var peak = 0
        let targets = Int(statement.b)
        for index in 0..<targets {
            let target = node(item(statement.a, index))
            if target.kind == .name {
                if isReadOnly(target.a) { throw Refusal(reason: "an assignment to a const variable") }
                function.nodes += 1
                peak = max(peak, kept + 1)
                kept += 1
            } else {
                peak = max(peak, try kept + need(item(statement.a, index)))
                kept += 3
            }
        }
        peak = max(peak, try kept + listNeed(statement.a, from: targets, count: Int(statement.c)))
        try checkRegisters(peak)
    }

    // MARK: Expressions

    /// Registers `list[from..<from+count]` need, evaluated into consecutive registers.
    mutating func listNeed(_ list: Int32, from: Int, count: Int) throws(Refusal) -> Int {
        var peak = 0
        for index in 0..<count { peak = max(peak, try index + need(item(list, from + index))) }
        return peak
    }

    /// An upper bound of the registers evaluating expression `id` needs, its result included.
    /// Left operands, callees and indexed objects nest without bound: walked with a loop.
    mutating func need(_ id: Int32) throws(Refusal) -> Int {
        var peak = 1
        var current = id
        while true {
            let expression = node(current)
            function.nodes += 1
            switch expression.kind {
            case .binary, .index:
                peak = max(peak, try 1 + need(expression.b))
                current = expression.a
            case .call:
                peak = max(peak, try 1 + listNeed(expression.b, from: 0, count: Int(expression.c)))
                current = expression.a
            case .methodCall:
                peak = max(peak, 3, try 2 + listNeed(expression.b, from: 1, count: Int(expression.c)))
                current = expression.a
            case .unary, .paren:
                current = expression.a
            case .table:
                return max(peak, try tableNeed(expression))
            case .function:
                try visitFunction(current)
                return peak
            default:
                return peak
            }
        }
    }

    /// A constructor: the table, the positional items not yet stored (up to 50), then the item.
    mutating func tableNeed(_ table: SyntaxNode) throws(Refusal) -> Int {
        var peak = 1
        var positional = 0
        for index in 0..<Int(table.b) {
            let field = node(item(table.a, index))
            function.nodes += 1
            let pending = positional % Self.itemsPerFlush
            if field.kind == .positionalField {
                peak = max(peak, try 1 + pending + need(field.a))
                positional += 1
            } else {
                peak = max(peak, try 1 + pending + max(need(field.a), 1 + need(field.b)))
            }
        }
        return peak + 1
    }
}
