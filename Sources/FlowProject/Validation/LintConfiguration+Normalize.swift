import FlowAnalysis
import FlowLua

/// luacheck 1.1's `options.normalize`: an option stack (least specific first) made into one
/// set of options.
extension LintConfiguration {
    /// The options `.luacheckrc`'s macros stand for, most specific first (`unused = false,
    /// unused_args = true` leaves unused arguments reported).
    static let macros: [(option: String, pattern: String)] = [
        ("unused_args", "21[23]"), ("global", "1"), ("unused", "[23]"), ("redefined", "4"),
    ]

    func normalize(_ stack: [OptionTable]) -> LintOptions {
        var options = LintOptions()
        options.rules = Self.rules(stack)
        options.unusedSecondaries = Self.scalar(stack, "unused_secondaries") ?? true
        options.unusedSelf = Self.scalar(stack, "self") ?? true
        options.allowDefined = Self.scalar(stack, "allow_defined") ?? false
        options.allowDefinedTop = Self.scalar(stack, "allow_defined_top") ?? false
        Self.lineLengths(stack, into: &options)
        globals(stack, into: &options)
        return options
    }

    /// The filter rules, most specific table first; in each, its macros, `ignore`, `only`, `enable`.
    static func rules(_ stack: [OptionTable]) -> [LintRule] {
        var rules: [LintRule] = []
        var usedMacros: Set<String> = []
        for table in stack.reversed() {
            for (option, pattern) in macros where !usedMacros.contains(option) {
                guard case .bool(let flag)? = table[option] else { continue }
                rules.append(LintRule(patterns: [pattern], kind: flag ? .enable : .disable))
                usedMacros.insert(option)
            }
            if let ignore = patterns(table["ignore"]) { rules.append(LintRule(patterns: ignore, kind: .disable)) }
            if let only = patterns(table["only"]) { rules.append(LintRule(patterns: only, kind: .only)) }
            if let enable = patterns(table["enable"]) { rules.append(LintRule(patterns: enable, kind: .enable)) }
        }
        return rules
    }

    private static func patterns(_ value: LuaValue?) -> [String]? {
        switch value {
        case .string(let pattern)?: return [pattern]
        case .array(let list)?: return list.compactMap(\.stringValue)
        case .table(let entries)?:
            return entries.compactMap { Int($0.key) }.sorted().compactMap { entries[String($0)]?.stringValue }
        default: return nil
        }
    }

    /// The most specific table's boolean for `option`.
    static func scalar(_ stack: [OptionTable], _ option: String) -> Bool? {
        for table in stack.reversed() { if case .bool(let flag)? = table[option] { return flag } }
        return nil
    }

    /// `max_line_length` sets all three limits; each of `max_code_line_length`,
    /// `max_string_line_length`, `max_comment_line_length` then its own; `false` means none.
    static func lineLengths(_ stack: [OptionTable], into options: inout LintOptions) {
        func length(_ value: LuaValue?) -> Int?? {
            switch value {
            case .bool(false)?: return .some(nil)
            case .integer(let number)?: return .some(Int(number))
            case .number(let number)? where number.isFinite && abs(number) < 1e15: return .some(Int(number))
            default: return .none
            }
        }
        for table in stack {
            if let limit = length(table["max_line_length"]) {
                options.maximumLineLength = limit
                options.maximumCodeLineLength = .some(limit)
                options.maximumStringLineLength = .some(limit)
                options.maximumCommentLineLength = .some(limit)
            }
            if let limit = length(table["max_code_line_length"]) { options.maximumCodeLineLength = .some(limit) }
            if let limit = length(table["max_string_line_length"]) { options.maximumStringLineLength = .some(limit) }
            if let limit = length(table["max_comment_line_length"]) {
                options.maximumCommentLineLength = .some(limit)
            }
        }
    }

    /// The globals a file may use: its stds' (the last `std` that does not start with `+`, and
    /// each one added after it), then each table's `globals`/`read_globals` (or `new_...`,
    /// which drop what came before) and `not_globals`. Lua 5.4's own globals a std lacks are
    /// taken away; with no `std` at all, Lua 5.4 is the base (luacheck's default is `max`, but
    /// code flowpkg runs is Lua 5.4's, whose missing 5.1 globals stay worth reporting).
    func globals(_ stack: [OptionTable], into options: inout LintOptions) {
        var standard: Set<String> = []
        var writable: Set<String> = []
        var base: Set<String>?
        for table in stack.reversed() {
            guard let std = table["std"] else { continue }
            if case .table(let custom) = std {
                base = Set(LuacheckEntries.names(in: custom["read_globals"]))
                writable.formUnion(LuacheckEntries.names(in: custom["globals"]))
                break
            }
            guard case .string(let text) = std else { continue }
            let parts = text.split(separator: Character("+"), omittingEmptySubsequences: false)
                .map { String($0.filter { !$0.isWhitespace }) }
            for part in parts where !part.isEmpty {
                standard.formUnion(names(ofStandard: part, readOnly: true))
                writable.formUnion(names(ofStandard: part, readOnly: false))
            }
            if parts.first?.isEmpty != true {
                base = []
                break
            }
        }
        standard.formUnion(base ?? LuacheckStandards.lua54)
        options.readGlobals = standard.subtracting(LuacheckStandards.lua54)
        options.globals = writable
        options.notGlobals = LuacheckStandards.lua54.subtracting(standard).subtracting(writable)
        let lastNewGlobals = stack.lastIndex { $0["new_globals"] != nil } ?? 0
        let lastNewReadGlobals = stack.lastIndex { $0["new_read_globals"] != nil } ?? 0
        for (index, table) in stack.enumerated() {
            // What is taken away never is among what is given (each `not_globals` below takes
            // its names out of both), so a name given now leaves `notGlobals` by this filter,
            // which looks at the few taken away rather than at 500,000 given (issue 43).
            if index >= lastNewGlobals, let value = table["new_globals"] ?? table["globals"] {
                options.globals.formUnion(LuacheckEntries.names(in: value))
                options.notGlobals = options.notGlobals.filter { !options.globals.contains($0) }
            }
            if index >= lastNewReadGlobals, let value = table["new_read_globals"] ?? table["read_globals"] {
                options.readGlobals.formUnion(LuacheckEntries.names(in: value))
                options.notGlobals = options.notGlobals.filter { !options.readGlobals.contains($0) }
            }
            for name in LuacheckEntries.names(in: table["not_globals"]) {
                options.notGlobals.insert(name)
                options.globals.remove(name)
                options.readGlobals.remove(name)
            }
        }
    }

    /// A std's read-only or writable global names: the configuration's own `stds` first, then
    /// luacheck's built-in ones (read-only all).
    func names(ofStandard name: String, readOnly: Bool) -> Set<String> {
        if let custom = customStandards[name] {
            return Set(LuacheckEntries.names(in: custom[readOnly ? "read_globals" : "globals"]))
        }
        return readOnly ? LuacheckStandards.sets[name] ?? [] : []
    }
}
