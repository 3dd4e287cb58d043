import FlowLua

/// What a `.luacheckrc`'s options list, as text: plain global names, `std:NAME` for each
/// built-in set it names, `opt:key=value` for a top-level lint option and
/// `optf:path<TAB>key=value` for one of a `files[...]` section. Sorted, each once.
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
        lintOptions(prefix: "opt:", options)
        if case .table(let files)? = options["files"] {
            for (path, section) in files {
                if case .table(let entries) = section { lintOptions(prefix: "optf:" + path + "\t", entries) }
            }
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

    private mutating func lintOptions(prefix: String, _ options: [String: LuaValue]) {
        for key in ["ignore", "enable", "only"] {
            switch options[key] {
            case .string(let pattern)?: add(prefix + key + "=" + pattern)
            case .array(let patterns)?:
                for pattern in patterns { if let text = pattern.stringValue { add(prefix + key + "=" + text) } }
            default: break
            }
        }
        for key in [
            "unused", "unused_args", "unused_secondaries", "self", "redefined", "allow_defined", "allow_defined_top",
            "max_line_length", "max_code_line_length", "max_string_line_length", "max_comment_line_length",
        ] {
            switch options[key] {
            case .bool(let flag)?: add(prefix + key + "=" + String(flag))
            case .integer(let number)?: add(prefix + key + "=" + String(number))
            case .number(let number)? where number.isFinite && abs(number) < 1e15:
                add(prefix + key + "=" + String(Int(number)))
            default: break
            }
        }
        for key in ["read_globals", "new_read_globals"] {
            for name in Self.names(in: options[key]) { add(prefix + "read_globals=" + name) }
        }
    }
}
