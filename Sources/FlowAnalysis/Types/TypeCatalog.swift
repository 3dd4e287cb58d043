/// The types a whole project knows: every module's and definition file's classes, aliases,
/// globals and module tables, merged. Walks of class parents stop at a class already seen, so
/// a recursive declaration ends.
public struct TypeCatalog: Sendable {
    public private(set) var classes: [String: ClassDefinition] = [:]
    public private(set) var aliases: [String: LuaType] = [:]
    /// Each module's returned table's fields, by module name.
    public private(set) var modules: [String: [String: TypeMember]] = [:]
    public private(set) var moduleClasses: [String: String] = [:]
    public private(set) var globals: [String: TypeMember] = [:]
    public private(set) var globalFields: [String: [String: TypeMember]] = [:]

    public init() {}

    /// The catalogue of `modules` (name nil for a script or a definition file) and of `definitions`.
    public init(modules: [(name: String?, types: ModuleTypes)]) {
        for (name, types) in modules { add(types, module: name) }
    }

    /// Adds a module's types (`module` nil for a script or a definition file), its members
    /// marked as declared in `file`.
    public mutating func add(_ types: ModuleTypes, module: String?, file: String? = nil) {
        var types = types
        if let file { Self.mark(&types, file: file) }
        for (name, definition) in types.classes {
            if var existing = classes[name] {
                existing.parents += definition.parents.filter { !existing.parents.contains($0) }
                existing.fields.merge(definition.fields) { old, _ in old }
                existing.isOpen = existing.isOpen || definition.isOpen
                existing.requiredFields.formUnion(definition.requiredFields)
                if existing.doc.isEmpty { existing.doc = definition.doc }
                classes[name] = existing
            } else {
                classes[name] = definition
            }
        }
        for name in types.openedClasses { classes[name]?.isOpen = true }
        for (name, fields) in types.assignedFields {
            classes[name]?.fields.merge(fields) { old, _ in old }
        }
        aliases.merge(types.aliases) { old, _ in old }
        globals.merge(types.globals) { old, _ in old }
        for (table, fields) in types.globalFields { globalFields[table, default: [:]].merge(fields) { old, _ in old } }
        if let module, types.returnsTable {
            modules[module] = types.exports
            if let exportClass = types.exportClass { moduleClasses[module] = exportClass }
        }
    }

    private static func mark(_ types: inout ModuleTypes, file: String) {
        func marked(_ members: [String: TypeMember]) -> [String: TypeMember] {
            members.mapValues {
                var member = $0
                member.file = file
                return member
            }
        }
        types.classes = types.classes.mapValues {
            var definition = $0
            definition.fields = marked(definition.fields)
            return definition
        }
        types.assignedFields = types.assignedFields.mapValues(marked)
        types.globalFields = types.globalFields.mapValues(marked)
        types.exports = marked(types.exports)
        types.globals = marked(types.globals)
    }

    /// Field `name` of class `className` or of one of its parents.
    public func member(ofClass className: String, named name: String) -> TypeMember? {
        var seen: Set<String> = []
        var pending = [className]
        while let current = pending.popLast() {
            guard seen.insert(current).inserted, let definition = classes[current] else { continue }
            if let field = definition.fields[name] { return field }
            for parent in definition.parents { if case .named(let parentName) = parent { pending.append(parentName) } }
        }
        return nil
    }

    /// Every field of a class and its parents (a class's own first).
    public func fields(ofClass className: String) -> [String: TypeMember] {
        var fields: [String: TypeMember] = [:]
        var seen: Set<String> = []
        var pending = [className]
        while !pending.isEmpty {
            let current = pending.removeFirst()
            guard seen.insert(current).inserted, let definition = classes[current] else { continue }
            fields.merge(definition.fields) { old, _ in old }
            for parent in definition.parents { if case .named(let parentName) = parent { pending.append(parentName) } }
        }
        return fields
    }

    /// The required fields of a class and its parents.
    public func requiredFields(ofClass className: String) -> Set<String> {
        var required: Set<String> = []
        var seen: Set<String> = []
        var pending = [className]
        while let current = pending.popLast() {
            guard seen.insert(current).inserted, let definition = classes[current] else { continue }
            required.formUnion(definition.requiredFields)
            for parent in definition.parents { if case .named(let parentName) = parent { pending.append(parentName) } }
        }
        return required
    }

    /// Whether every field of the class is known: it and each parent a declared class, none
    /// open to any key (`---@field [string] T`), none generic, none a built-in type.
    public func isClosed(_ className: String) -> Bool {
        var seen: Set<String> = []
        var pending = [className]
        while let current = pending.popLast() {
            guard seen.insert(current).inserted else { continue }
            guard let definition = classes[current], !definition.isOpen else { return false }
            for parent in definition.parents {
                guard case .named(let parentName) = parent else { return false }
                pending.append(parentName)
            }
        }
        return true
    }

    /// The fields of `module`'s returned table: its own and, when it is a class's table, the class's.
    public func exports(ofModule module: String) -> [String: TypeMember] {
        var fields = modules[module] ?? [:]
        if let className = moduleClasses[module] { fields.merge(self.fields(ofClass: className)) { old, _ in old } }
        return fields
    }
}
