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
    /// A Lua function held by reference (callable from Swift), or a Swift closure to hand to Lua.
    case function(LuaFunction)
    /// A value Swift cannot hold (a userdata, a thread, a function outside a context), by its
    /// Lua type name.
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
        case .function(let function): return function.description
        case .opaque(let type): return type
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is an integer or a float.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The function, when this is one.
    public var functionValue: LuaFunction? {
        if case .function(let value) = self { return value }
        return nil
    }
}

extension LuaValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .nil }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: LuaValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, LuaValue)...) {
        self = .table(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
