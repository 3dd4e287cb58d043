/// How the lint classes are configured: luacheck's options, as `.luacheckrc` gives them, for
/// the whole project or one file (`files[...]`), normalized as luacheck normalizes a file's
/// option stack.
public struct LintOptions: Sendable, Equatable {
    /// luacheck's filter rules, most specific first: `ignore` patterns disable, `enable`
    /// patterns enable, `only` patterns disable what they do not match; the `unused`,
    /// `unused_args`, `redefined` and `global` options are rules too (`[23]`, `21[23]`, `4`, `1`).
    public var rules: [LintRule] = []
    /// Report an unused variable set with others from one call (`local a, b = f()`, b unused).
    public var unusedSecondaries = true
    /// Report an unused implicit `self`.
    public var unusedSelf = true
    /// Globals set anywhere count as defined (no 111 for them; 131 when nobody reads them).
    public var allowDefined = false
    /// Globals set at a module's top level count as defined.
    public var allowDefinedTop = false
    /// Line length limits (nil: none). The code, string and comment limits default to the first.
    public var maximumLineLength: Int? = 120
    public var maximumCodeLineLength: Int?? = .none
    public var maximumStringLineLength: Int?? = .none
    public var maximumCommentLineLength: Int?? = .none
    /// Globals this file's options add: `globals` (writable) and `read_globals` (read-only),
    /// with the globals of the stds its `std` adds.
    public var globals: Set<String> = []
    public var readGlobals: Set<String> = []
    /// Globals (`name`) and fields of globals (`string.len`) this file's options take away:
    /// `not_globals`, and the standard globals a narrower `std` (`min`, `lua51`) lacks.
    public var notGlobals: Set<String> = []

    public init() {}

    /// The options that ignore warnings matching `patterns`, as `.luacheckrc`'s `ignore` does.
    public init(ignoring patterns: [String]) {
        rules = [LintRule(patterns: patterns, kind: .disable)]
    }

    /// The limit for a line that ends in `kind` (`code`, `string`, `comment`).
    public func lineLimit(for kind: String) -> Int? {
        let specific: Int??
        switch kind {
        case "string": specific = maximumStringLineLength
        case "comment": specific = maximumCommentLineLength
        default: specific = maximumCodeLineLength
        }
        if let specific { return specific }
        return maximumLineLength
    }

    /// Whether `name` is a global these options define for the file: the environment's, or
    /// one the options add, unless they take it away.
    public func defines(global name: String, in environment: Environment) -> Bool {
        if notGlobals.contains(name) { return false }
        return environment.defines(global: name) || globals.contains(name) || readGlobals.contains(name)
    }

    /// Whether a warning about `name` is reported under these options: luacheck's
    /// `passes_rules_filter`, rule by rule.
    public func reports(_ warning: Int, name: String) -> Bool {
        let code = String(warning)
        let name: String? = name.isEmpty ? nil : name
        var enabledCode = false
        var enabledName = false
        for rule in rules {
            var matchesOne = false
            for pattern in rule.patterns {
                var (matchesCode, matchesName) = Self.match(pattern, code: code, name: name)
                if enabledCode || enabledName { matchesCode = rule.kind != .disable }
                if (matchesCode == true && matchesName != false) || (matchesName == true && matchesCode != false) {
                    matchesOne = true
                }
                switch rule.kind {
                case .enable:
                    if matchesCode == true { enabledCode = true }
                    if matchesName == true { enabledName = true }
                    if enabledCode && enabledName { return true }
                case .disable:
                    if matchesOne { return false }
                case .only: break
                }
            }
            if rule.kind == .only, !matchesOne { return false }
        }
        return true
    }

    /// Whether one of luacheck's patterns matches a warning: `CODE`, `CODE/NAME` or `NAME`
    /// (a pattern with a letter or `_` and no `/`). CODE is a Lua pattern anchored at its start
    /// (`2` all unused, `21[23]`), NAME one anchored at both ends (`_.*`, `self`), unless the
    /// pattern anchors itself (`^`, `$`). Returns whether it matches by code and by name, nil
    /// for a part the pattern does not have.
    public static func match(_ pattern: String, code: String, name: String?) -> (Bool?, Bool?) {
        var codePattern: String?
        var namePattern: String?
        if let slash = pattern.firstIndex(of: "/") {
            codePattern = String(pattern[..<slash])
            namePattern = String(pattern[pattern.index(after: slash)...])
        } else if pattern.utf8.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 == 0x5F }) {
            namePattern = pattern
        } else {
            codePattern = pattern
        }
        let byCode = codePattern.map { LuaPatternSubset.matches($0, code, toEnd: false) }
        let byName = namePattern.map { pattern in
            name.map { LuaPatternSubset.matches(pattern, $0, toEnd: true) } ?? false
        }
        return (byCode, byName)
    }

    /// Whether `pattern` alone (as an inline `ignore` gives it) matches a warning.
    public static func matches(_ pattern: String, code: String, name: String) -> Bool {
        var options = LintOptions()
        options.rules = [LintRule(patterns: [pattern], kind: .disable)]
        return !options.reports(Int(code) ?? 0, name: name)
    }
}

/// One of luacheck's filter rules: a list of patterns and what a match does.
public struct LintRule: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case enable, disable, only }
    public var patterns: [String]
    public var kind: Kind

    public init(patterns: [String], kind: Kind) {
        self.patterns = patterns
        self.kind = kind
    }
}

/// The part of Lua's patterns luacheck's option patterns use: `.`, `%a`-style classes, `%`
/// escapes, `[...]` sets, and the `*`, `+`, `-`, `?` repetitions; matched against the whole text.
enum LuaPatternSubset {
    static func wholeMatch(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8)
        let t = Array(text.utf8)
        return match(p, 0, t, 0, depth: 0, toEnd: true)
    }

    /// luacheck's anchoring: a pattern that starts with `^` or ends with `$` is used as it is
    /// (found anywhere unless `^`, to the end only with `$`); any other is anchored at the start,
    /// and at the end too when `toEnd`.
    static func matches(_ pattern: String, _ text: String, toEnd: Bool) -> Bool {
        var p = Array(pattern.utf8)
        let t = Array(text.utf8)
        let userAnchored =
            p.first == UInt8(ascii: "^")
            || (p.last == UInt8(ascii: "$") && !(p.count >= 2 && p[p.count - 2] == UInt8(ascii: "%")))
        var atStart = true
        var atEnd = toEnd
        if userAnchored {
            atStart = p.first == UInt8(ascii: "^")
            if atStart { p.removeFirst() }
            atEnd = p.last == UInt8(ascii: "$") && !(p.count >= 2 && p[p.count - 2] == UInt8(ascii: "%"))
            if atEnd { p.removeLast() }
        }
        let starts = atStart ? 0...0 : 0...t.count
        return starts.contains { match(p, 0, t, $0, depth: 0, toEnd: atEnd) }
    }

    private static func singleEnd(_ p: [UInt8], _ i: Int) -> Int {
        if p[i] == UInt8(ascii: "%") { return min(p.count, i + 2) }
        if p[i] == UInt8(ascii: "[") {
            var j = i + 1
            if j < p.count, p[j] == UInt8(ascii: "^") { j += 1 }
            repeat {
                if j < p.count, p[j] == UInt8(ascii: "%") { j += 1 }
                j += 1
            } while j < p.count && p[j] != UInt8(ascii: "]")
            return min(p.count, j + 1)
        }
        return i + 1
    }

    private static func classMatches(_ c: UInt8, _ cls: UInt8) -> Bool {
        let isAlpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
        let isDigit = c >= 48 && c <= 57
        let result: Bool
        switch cls | 0x20 {
        case UInt8(ascii: "a"): result = isAlpha
        case UInt8(ascii: "d"): result = isDigit
        case UInt8(ascii: "l"): result = c >= 97 && c <= 122
        case UInt8(ascii: "u"): result = c >= 65 && c <= 90
        case UInt8(ascii: "w"): result = isAlpha || isDigit
        case UInt8(ascii: "s"): result = c == 32 || (c >= 9 && c <= 13)
        case UInt8(ascii: "p"):
            result = (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)
        case UInt8(ascii: "x"): result = isDigit || ((c | 0x20) >= 97 && (c | 0x20) <= 102)
        default: return c == cls
        }
        return cls >= 65 && cls <= 90 ? !result : result
    }

    private static func singleMatches(_ c: UInt8, _ p: [UInt8], _ start: Int, _ end: Int) -> Bool {
        switch p[start] {
        case UInt8(ascii: "."): return true
        case UInt8(ascii: "%"): return start + 1 < p.count && classMatches(c, p[start + 1])
        case UInt8(ascii: "["):
            var j = start + 1
            var negate = false
            if p[j] == UInt8(ascii: "^") {
                negate = true
                j += 1
            }
            var found = false
            while j < end - 1 {
                if p[j] == UInt8(ascii: "%"), j + 1 < end - 1 {
                    if classMatches(c, p[j + 1]) { found = true }
                    j += 2
                } else if j + 2 < end - 1, p[j + 1] == UInt8(ascii: "-") {
                    if c >= p[j] && c <= p[j + 2] { found = true }
                    j += 3
                } else {
                    if c == p[j] { found = true }
                    j += 1
                }
            }
            return found != negate
        default: return c == p[start]
        }
    }

    private static func match(_ p: [UInt8], _ pi: Int, _ t: [UInt8], _ ti: Int, depth: Int, toEnd: Bool) -> Bool {
        guard depth < 200 else { return false }
        if pi == p.count { return !toEnd || ti == t.count }
        let end = singleEnd(p, pi)
        let next: UInt8? = end < p.count ? p[end] : nil
        let matchesHere = ti < t.count && singleMatches(t[ti], p, pi, end)
        switch next {
        case UInt8(ascii: "*"):
            var count = 0
            while ti + count < t.count, singleMatches(t[ti + count], p, pi, end) { count += 1 }
            while count >= 0 {
                if match(p, end + 1, t, ti + count, depth: depth + 1, toEnd: toEnd) { return true }
                count -= 1
            }
            return false
        case UInt8(ascii: "+"):
            var count = 0
            while ti + count < t.count, singleMatches(t[ti + count], p, pi, end) { count += 1 }
            while count >= 1 {
                if match(p, end + 1, t, ti + count, depth: depth + 1, toEnd: toEnd) { return true }
                count -= 1
            }
            return false
        case UInt8(ascii: "-"):
            var count = 0
            while true {
                if match(p, end + 1, t, ti + count, depth: depth + 1, toEnd: toEnd) { return true }
                guard ti + count < t.count, singleMatches(t[ti + count], p, pi, end) else { return false }
                count += 1
            }
        case UInt8(ascii: "?"):
            if matchesHere, match(p, end + 1, t, ti + 1, depth: depth + 1, toEnd: toEnd) { return true }
            return match(p, end + 1, t, ti, depth: depth + 1, toEnd: toEnd)
        default:
            return matchesHere && match(p, end, t, ti + 1, depth: depth + 1, toEnd: toEnd)
        }
    }
}
