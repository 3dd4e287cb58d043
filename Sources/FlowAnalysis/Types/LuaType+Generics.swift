/// `---@generic T`: a type that mentions a generic name is whatever a call binds it to, so it
/// is `unknown` to the checks (never reported); the rest of a generic function's signature
/// (its other parameters, how many values it returns) is checked as any other's.
extension LuaType {
    /// Whether `names` (generic names) occur anywhere in the type.
    func mentions(_ names: Set<String>) -> Bool {
        switch self {
        case .named(let name): return names.contains(name)
        case .applied(let name, let arguments): return names.contains(name) || arguments.contains { $0.mentions(names) }
        case .union(let members): return members.contains { $0.mentions(names) }
        case .array(let element): return element.mentions(names)
        case .dictionary(let key, let value): return key.mentions(names) || value.mentions(names)
        case .shape(let fields): return fields.values.contains { $0.mentions(names) }
        case .function(let signature?):
            return signature.parameters.contains { $0.type.mentions(names) }
                || signature.returns.contains { $0.type.mentions(names) }
        default: return false
        }
    }

    /// The type, or `unknown` when it mentions one of `names`.
    func erasing(_ names: Set<String>) -> LuaType { mentions(names) ? .unknown : self }
}

extension FunctionType {
    /// The signature with every parameter and return type that mentions one of `names` unknown.
    func erasing(_ names: Set<String>) -> FunctionType {
        var erased = self
        erased.parameters = parameters.map {
            var parameter = $0
            parameter.type = parameter.type.erasing(names)
            return parameter
        }
        erased.returns = returns.map {
            var value = $0
            value.type = value.type.erasing(names)
            return value
        }
        erased.overloads = overloads.map { $0.erasing(names) }
        return erased
    }
}
