import FlowAnalysis

/// The members of a value whose type a local has at the cursor, narrowed by the conditions
/// around it (`if type(x) == "string" then x:` offers the string methods; issue 47).
extension LanguageServer {
    /// Aliases are followed this deep: a recursive one ends.
    private static let aliasDepth = 8

    /// The fields of a value of `type`: the string library for a string, a class's fields for
    /// a class; nil for any other type (a union, a table, unknown), which offers nothing.
    static func members(ofValue type: LuaType, catalog: TypeCatalog, depth: Int = 0) -> [String: TypeMember]? {
        switch type {
        case .string:
            return catalog.globalFields["string"]
        case .literal(let text) where text.hasPrefix("\"") || text.hasPrefix("'"):
            return catalog.globalFields["string"]
        case .named(let name):
            if catalog.classes[name] != nil { return catalog.fields(ofClass: name) }
            guard depth < aliasDepth, let aliased = catalog.aliases[name] else { return nil }
            return members(ofValue: aliased, catalog: catalog, depth: depth + 1)
        default:
            return nil
        }
    }
}
