/// Whether a value whose type is certain (a literal, a constructor) cannot be of a declared
/// type. Answers "rejects" only when sure: an unknown name, an open class or anything the
/// checks cannot see through accepts.
enum TypeRelations {
    /// What kind of value a literal type is: "string", "number", "boolean", "nil", "table", "function".
    static func kindName(_ type: LuaType) -> String {
        switch type {
        case .literal(let text):
            if text.hasPrefix("\"") { return "string" }
            if text == "true" || text == "false" { return "boolean" }
            return Double(text) != nil || text.hasPrefix("0x") || text.hasPrefix("0X") ? "number" : text
        case .function: return "function"
        case .integer: return "number"
        default: return type.description
        }
    }

    /// The literal value as written for a message: `"left"`, `5`, `true`, or its kind.
    static func valueText(_ type: LuaType) -> String {
        if case .literal(let text) = type {
            return text.hasPrefix("\"") ? "string \(text)" : "\(kindName(type)) \(text)"
        }
        return kindName(type)
    }

    private static let maximumDepth = 16

    /// True when a value of the certain type `value` is not a `declared`.
    /// With `coerces`, a number is taken where a string is declared and a numeral string where a
    /// number is, as Lua's library functions take them (arguments); without, as a variable holds them.
    static func rejects(
        _ declared: LuaType, _ value: LuaType, catalog: TypeCatalog, coerces: Bool = true, depth: Int = 0
    ) -> Bool {
        guard depth < maximumDepth else { return false }
        var kind = kindName(value)
        // Lua's library turns a numeral string into its number ("3" where a number is expected).
        if coerces, kind == "string", case .literal(let text) = value, Double(text.dropFirst().dropLast()) != nil,
            declared == .number || declared == .integer
        {
            kind = "number"
        }
        switch declared {
        case .unknown, .any: return false
        case .nil: return kind != "nil"
        case .boolean: return kind != "boolean"
        case .number: return kind != "number"
        case .integer:
            guard kind == "number" else { return true }
            if case .literal(let text) = value, let number = Double(text), !text.lowercased().hasPrefix("0x") {
                return number.rounded() != number
            }
            return false
        // Lua turns a number into a string where a string is expected.
        case .string: return kind != "string" && !(coerces && kind == "number")
        case .table, .array, .dictionary, .shape: return kind != "table"
        case .userdata, .thread: return true
        case .function: return kind != "function"
        case .literal(let text):
            if case .literal(let written) = value {
                if let a = Double(text), let b = Double(written) { return a != b }
                return text != written && !(text.hasPrefix("'") || written.hasPrefix("'"))
            }
            return kindName(declared) != kind || kind == "table"
        case .union(let members):
            return members.allSatisfy { rejects($0, value, catalog: catalog, coerces: coerces, depth: depth + 1) }
        case .named(let name), .applied(let name, _):
            return rejectsNamed(name, value, kind: kind, catalog: catalog, coerces: coerces, depth: depth)
        }
    }

    private static func rejectsNamed(
        _ name: String, _ value: LuaType, kind: String, catalog: TypeCatalog, coerces: Bool, depth: Int
    ) -> Bool {
        guard depth < maximumDepth else { return false }
        if let alias = catalog.aliases[name] {
            return rejects(alias, value, catalog: catalog, coerces: coerces, depth: depth + 1)
        }
        guard let definition = catalog.classes[name] else { return false }
        if !definition.parents.isEmpty {
            // A class of a built-in type (`---@class Path: string`) is that type.
            return definition.parents.allSatisfy { parent in
                if case .named(let parentName) = parent, catalog.classes[parentName] != nil {
                    return rejectsNamed(
                        parentName, value, kind: kind, catalog: catalog, coerces: coerces, depth: depth + 1)
                }
                return rejects(parent, value, catalog: catalog, coerces: coerces, depth: depth + 1)
            }
        }
        // An object: a table, a userdata, or something callable; never a plain literal.
        return ["nil", "boolean", "number", "string"].contains(kind)
    }

    /// True when a member of type `type` is certainly no function: calling it fails.
    static func isCertainlyNotCallable(_ type: LuaType) -> Bool {
        switch type {
        case .nil, .boolean, .number, .integer, .string, .literal: return true
        case .union(let members): return members.allSatisfy(isCertainlyNotCallable)
        default: return false
        }
    }
}
