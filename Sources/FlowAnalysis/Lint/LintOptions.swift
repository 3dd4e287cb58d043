/// How the lint classes are configured: luacheck's options, as `.luacheckrc` gives them, for
/// the whole project or one file (`files[...]`).
public struct LintOptions: Sendable, Equatable {
    /// Patterns of warnings not reported (`"212"`, `"21"`, `"212/self"`, `"self"`, `"_.*"`).
    public var ignore: [String] = []
    /// Patterns reported even when `ignore` names them.
    public var enable: [String] = []
    /// When set, only warnings matching one of these are reported.
    public var only: [String]? = nil
    /// Report unused arguments (212, 232).
    public var unusedArguments = true
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
    /// Globals the configuration adds: `globals` (writable) and `read_globals` (read-only).
    public var globals: Set<String> = []
    public var readGlobals: Set<String> = []

    public init() {}

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

    /// Whether a warning about `name` is reported under these options.
    public func reports(_ warning: Int, name: String) -> Bool {
        let code = String(warning)
        if let only, !only.contains(where: { Self.matches($0, code: code, name: name) }) { return false }
        if ignore.contains(where: { Self.matches($0, code: code, name: name) }),
            !enable.contains(where: { Self.matches($0, code: code, name: name) })
        {
            return false
        }
        return true
    }

    /// luacheck's patterns: `CODE`, `CODE/NAME` or `NAME`, where CODE matches the numbers it
    /// starts (`2` all unused, `21` 211–213) and NAME is a Lua pattern matched against the
    /// whole name (`_.*`, `self`, `foo`).
    public static func matches(_ pattern: String, code: String, name: String) -> Bool {
        let parts = pattern.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var codePattern: String?
        var namePattern: String?
        if parts.count == 2 {
            codePattern = parts[0]
            namePattern = parts[1]
        } else if pattern.utf8.first.map({ $0 >= 0x30 && $0 <= 0x39 }) == true {
            codePattern = pattern
        } else {
            namePattern = pattern
        }
        if let codePattern, !code.hasPrefix(codePattern) { return false }
        if let namePattern, !LuaPatternSubset.wholeMatch(namePattern, name) { return false }
        return true
    }
}

/// The part of Lua's patterns luacheck's option patterns use: `.`, `%a`-style classes, `%`
/// escapes, `[...]` sets, and the `*`, `+`, `-`, `?` repetitions; matched against the whole text.
enum LuaPatternSubset {
    static func wholeMatch(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8)
        let t = Array(text.utf8)
        return match(p, 0, t, 0, depth: 0)
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

    private static func match(_ p: [UInt8], _ pi: Int, _ t: [UInt8], _ ti: Int, depth: Int) -> Bool {
        guard depth < 200 else { return false }
        if pi == p.count { return ti == t.count }
        let end = singleEnd(p, pi)
        let next: UInt8? = end < p.count ? p[end] : nil
        let matchesHere = ti < t.count && singleMatches(t[ti], p, pi, end)
        switch next {
        case UInt8(ascii: "*"):
            var count = 0
            while ti + count < t.count, singleMatches(t[ti + count], p, pi, end) { count += 1 }
            while count >= 0 {
                if match(p, end + 1, t, ti + count, depth: depth + 1) { return true }
                count -= 1
            }
            return false
        case UInt8(ascii: "+"):
            var count = 0
            while ti + count < t.count, singleMatches(t[ti + count], p, pi, end) { count += 1 }
            while count >= 1 {
                if match(p, end + 1, t, ti + count, depth: depth + 1) { return true }
                count -= 1
            }
            return false
        case UInt8(ascii: "-"):
            var count = 0
            while true {
                if match(p, end + 1, t, ti + count, depth: depth + 1) { return true }
                guard ti + count < t.count, singleMatches(t[ti + count], p, pi, end) else { return false }
                count += 1
            }
        case UInt8(ascii: "?"):
            if matchesHere, match(p, end + 1, t, ti + 1, depth: depth + 1) { return true }
            return match(p, end + 1, t, ti, depth: depth + 1)
        default:
            return matchesHere && match(p, end, t, ti + 1, depth: depth + 1)
        }
    }
}
