/// A Lua value copied into Swift.
public enum LuaValue: Equatable, Sendable, CustomStringConvertible {
    case `nil`
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    /// A table whose keys are exactly 1...n.
    case array([LuaValue])
    /// Any other table, keyed by its string and integer keys written as strings.
    case table([String: LuaValue])
    /// A value Swift cannot hold (a function, a userdata, a thread), by its Lua type name.
    case opaque(String)

    public var description: String {
        switch self {
        case .nil: return "nil"
        case .bool(let value): return String(value)
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return value
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .table(let values):
            return "{" + values.keys.sorted().map { "\($0): \(values[$0]!.description)" }.joined(separator: ", ") + "}"
        case .opaque(let type): return type
        }
    }
}
