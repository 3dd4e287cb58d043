import FlowLua

/// The global names a `.luacheckrc`'s options list, at the top level and in every `files[...]`
/// section, with `std:NAME` for each built-in set it names. Sorted, each once.
struct LuacheckEntries {
    private(set) var list: [String] = []
    private var seen: Set<String> = []
    private let stds: [String: LuaValue]

    /// `options`: the configuration's globals (and what it returned), as the sandbox copied them.
    init(options: [String: LuaValue]) {
        if case .table(let stds)? = options["stds"] { self.stds = stds } else { self.stds = [:] }
        section(options)
        if case .table(let files)? = options["files"] {
            for (_, section) in files { if case .table(let entries) = section { self.section(entries) } }
        }
        list.sort()
    }

    private mutating func add(_ text: String?) {
        guard let text, seen.insert(text).inserted else { return }
        list.append(text)
    }

    /// A list of names: a string, an array of them, or a table whose string keys are names
    /// (`globals = { "a", b = { fields = ... } }`).
    private mutating func names(_ value: LuaValue?) {
        for name in Self.names(in: value) { add(name) }
    }

    static func names(in value: LuaValue?) -> [String] {
        switch value {
        case .string(let name)?: return [name]
        case .array(let entries)?: return entries.compactMap(\.stringValue)
        case .table(let entries)?:
            return entries.compactMap { key, entry in Int(key) != nil ? entry.stringValue : key }
        default: return []
        }
    }

    private mutating func standard(_ value: LuaValue?, depth: Int = 0) {
        switch value {
        case .table(let std)?:
            names(std["globals"])
            names(std["read_globals"])
        case .string(let text)? where depth < 8:
            for part in text.split(whereSeparator: { $0 == "+" || $0 == " " || $0 == "\t" || $0 == "\n" }) {
                let name = String(part)
                if case .table? = stds[name] { standard(stds[name], depth: depth + 1) } else { add("std:" + name) }
            }
        default: break
        }
    }

    private mutating func section(_ options: [String: LuaValue]) {
        for key in ["globals", "read_globals", "new_globals", "new_read_globals"] { names(options[key]) }
        standard(options["std"])
    }
}
