/// What a condition tells of a value's type: `if x then` (not nil), `type(x) == "string"` and their
/// negations. Narrowing only ever removes members a union is certain not to have: a member whose
/// kind is not known here (a class, an alias, `any`) stays in every branch, so nothing unknown is
/// ever reported.
enum TypeNarrowing: Equatable {
    /// The value is neither nil nor false.
    case truthy
    /// `x ~= nil`: `false` stays.
    case notNil
    /// `type(x) == kind`.
    case kind(String)
    /// `type(x) ~= kind`.
    case notKind(String)

    /// `type` narrowed by this fact; nil when it tells nothing new.
    func apply(to type: LuaType) -> LuaType? {
        switch type {
        case .unknown, .any: return nil
        default: break
        }
        let members: [LuaType]
        if case .union(let union) = type { members = union } else { members = [type] }
        let kept = members.filter(keeps)
        if kept.count == members.count { return nil }
        switch kept.count {
        case 0: return .unknown  // no value can get here: nothing is checked
        case 1: return kept[0]
        default: return .union(kept)
        }
    }

    private func keeps(_ member: LuaType) -> Bool {
        switch self {
        case .truthy: return member != .nil && member != .literal("false")
        case .notNil: return member != .nil
        case .kind(let kind): return Self.kind(of: member).map { $0 == kind } ?? true
        case .notKind(let kind): return Self.kind(of: member).map { $0 != kind } ?? true
        }
    }

    /// What `type()` returns for every value of `member`; nil when it is not certain.
    static func kind(of member: LuaType) -> String? {
        switch member {
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .number, .integer: return "number"
        case .string: return "string"
        case .table, .array, .dictionary, .shape: return "table"
        case .function: return "function"
        case .userdata: return "userdata"
        case .thread: return "thread"
        case .literal(let text):
            if text == "true" || text == "false" { return "boolean" }
            if text.hasPrefix("\"") || text.hasPrefix("'") { return "string" }
            return "number"
        case .unknown, .any, .named, .union, .applied: return nil
        }
    }
}
