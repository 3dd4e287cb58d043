import FlowLiveProtocol
import FlowRuntime

/// What the debugger reads and changes in the program: scopes, variables, evaluations,
/// assignments and the REPL's completions.
extension DebugEngine {
    /// A frame's scopes, their references packed above every value handle.
    static func scopes(ofFrame frame: Int) -> [DebugScopeInfo] {
        let base = scopeBase + (frame - 1) * 4
        return [
            DebugScopeInfo(name: "Locals", reference: base, expensive: false),
            DebugScopeInfo(name: "Upvalues", reference: base + 1, expensive: false),
            DebugScopeInfo(name: "Varargs", reference: base + 2, expensive: false),
            DebugScopeInfo(name: "Globals", reference: base + 3, expensive: true),
        ]
    }

    func variables(_ reference: Int, runner: LuaThread, inspector: LuaDebugInspector) -> DebugReply {
        guard reference >= Self.scopeBase else {
            return .variables(inspector.children(of: reference, runner: runner).map(Self.info))
        }
        guard let (owner, level) = place(ofFrame: (reference - Self.scopeBase) / 4 + 1, or: runner) else {
            return .failure("no such frame")
        }
        let values: [LuaDebugValue]
        switch (reference - Self.scopeBase) % 4 {
        case 0: values = inspector.locals(of: owner, level: level, runner: runner)
        case 1: values = inspector.upvalues(of: owner, level: level, runner: runner)
        case 2: values = inspector.varargs(of: owner, level: level, runner: runner)
        default: values = inspector.globals(runner: runner)
        }
        return .variables(values.map(Self.info))
    }

    func evaluate(_ expression: String, frame: Int?, runner: LuaThread, inspector: LuaDebugInspector) -> DebugReply {
        do {
            let at = lua.stoppedThread != nil ? frame.flatMap { place(ofFrame: $0, or: runner) } : nil
            return .value(Self.info(try inspector.evaluate(expression, frame: at, runner: runner)))
        } catch {
            return .failure((error as? LuaError)?.message ?? "\(error)")
        }
    }

    func setVariable(
        _ reference: Int, name: String, value: String, runner: LuaThread, inspector: LuaDebugInspector
    ) -> DebugReply {
        do {
            guard reference >= Self.scopeBase else {
                let frame = lua.stoppedThread.map { ($0, 0) }
                return .value(
                    Self.info(try inspector.setField(name, of: reference, to: value, frame: frame, runner: runner)))
            }
            guard let (owner, level) = place(ofFrame: (reference - Self.scopeBase) / 4 + 1, or: runner) else {
                return .failure("no such frame")
            }
            switch (reference - Self.scopeBase) % 4 {
            case 0:
                return .value(
                    Self.info(try inspector.setLocal(name, to: value, of: owner, level: level, runner: runner)))
            case 1:
                return .value(
                    Self.info(try inspector.setUpvalue(name, to: value, of: owner, level: level, runner: runner)))
            case 3:
                _ = try inspector.evaluate("\(name) = (\(value))", frame: nil, runner: runner)
                return .value(Self.info(try inspector.evaluate(name, frame: nil, runner: runner)))
            default:
                return .failure("varargs cannot be set")
            }
        } catch {
            return .failure((error as? LuaError)?.message ?? "\(error)")
        }
    }

    /// The REPL's completions for `text` (what is typed before the cursor): after `a.b.` or
    /// `a:`, the fields of that value (and of its metatable's `__index` table, a string's of
    /// `string`); else the frame's locals and upvalues and the globals. Each with its type.
    func completions(_ text: String, frame: Int?, runner: LuaThread, inspector: LuaDebugInspector) -> DebugReply {
        let (object, partial) = Self.completionTarget(text)
        let at = lua.stoppedThread != nil ? frame.flatMap { place(ofFrame: $0, or: runner) } : nil
        var candidates: [LuaDebugValue] = []
        if let object {
            guard let value = try? inspector.evaluate(object, frame: at, runner: runner) else { return .variables([]) }
            if value.type == "string", let strings = try? inspector.evaluate("string", frame: nil, runner: runner) {
                candidates = inspector.children(of: strings.handle, runner: runner)
            } else if value.handle != 0 {
                candidates = members(of: value.handle, runner: runner, inspector: inspector)
            }
        } else {
            if let (owner, level) = at {
                candidates += inspector.locals(of: owner, level: level, runner: runner)
                candidates += inspector.upvalues(of: owner, level: level, runner: runner)
            }
            candidates += inspector.globals(runner: runner)
        }
        var seen = Set<String>()
        let chosen = candidates.filter { value in
            Self.isName(value.name) && value.name.hasPrefix(partial) && seen.insert(value.name).inserted
        }
        return .variables(chosen.map(Self.info))
    }

    /// A table's fields, then those its metatable's `__index` table gives (one level).
    private func members(of handle: Int, runner: LuaThread, inspector: LuaDebugInspector) -> [LuaDebugValue] {
        let own = inspector.children(of: handle, runner: runner)
        guard let meta = own.first(where: { $0.name == "(metatable)" }), meta.handle != 0,
            let index = inspector.children(of: meta.handle, runner: runner).first(where: { $0.name == "__index" }),
            index.type == "table", index.handle != 0
        else { return own }
        return own + inspector.children(of: index.handle, runner: runner)
    }

    /// `a.b:c` → (`a.b`, `c`); `ab` → (nil, `ab`): the value whose fields complete, and the
    /// start of the name typed.
    static func completionTarget(_ text: String) -> (object: String?, partial: String) {
        let chain = String(text.reversed().prefix { $0.isLetter || $0.isNumber || "_.:".contains($0) }.reversed())
        guard let separator = chain.lastIndex(where: { $0 == "." || $0 == ":" }) else { return (nil, chain) }
        let object = String(chain[..<separator])
        return (object.isEmpty ? nil : object, String(chain[chain.index(after: separator)...]))
    }

    private static func isName(_ text: String) -> Bool {
        guard let first = text.first, first == "_" || first.isLetter else { return false }
        return text.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
    }
}
