import FlowRuntime

/// Where each named function of a chunk starts running: what a breakpoint on a function by
/// name stops at. The names come from the definitions in the text (`function M.f(`,
/// `local function f(`, `f = function(`); the first line of code of each from the compiled
/// chunk's functions (`LuaFunctionLines`), matched by the line the definition is on.
struct FunctionEntries {
    struct Entry: Equatable {
        /// As the definition writes it: `bump`, `M.double`, `Account:deposit`.
        var name: String
        /// The function's first line of code.
        var line: Int
    }

    static func find(in bytes: [UInt8], functions: [LuaFunctionLines]) -> [Entry] {
        var entries: [Entry] = []
        for (index, text) in String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let line = index + 1
            for name in definedNames(in: Substring(text)) {
                // The outermost function defined on the line: the one with the most lines.
                let defined = functions.filter { $0.lineDefined == line && !$0.lines.isEmpty }
                guard let function = defined.max(by: { $0.lines.count < $1.lines.count }),
                    let first = function.lines.min()
                else { continue }
                entries.append(Entry(name: name, line: first))
            }
        }
        return entries
    }

    /// Whether a breakpoint's `wanted` name is the function `defined`: the same name, or the
    /// same last part (`double` and `util.double` both find `function M.double`).
    static func matches(_ defined: String, _ wanted: String) -> Bool {
        if defined == wanted { return true }
        return lastPart(defined) == lastPart(wanted)
    }

    private static func lastPart(_ name: String) -> Substring {
        name.split(whereSeparator: { $0 == "." || $0 == ":" }).last ?? Substring(name)
    }

    /// The names functions are given on one line of code (a comment line gives none).
    static func definedNames(in line: Substring) -> [String] {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard !trimmed.hasPrefix("--") else { return [] }
        var names: [String] = []
        var rest = line[...]
        while let found = rest.firstRange(of: "function") {
            let before = rest[..<found.lowerBound].last
            let after = rest[found.upperBound...]
            rest = after
            guard before.map({ !isNamePart($0) }) ?? true, after.first.map({ !isNamePart($0) }) ?? true else {
                continue
            }
            let following = after.drop { $0 == " " || $0 == "\t" }
            let named = String(following.prefix { isNamePart($0) || $0 == "." || $0 == ":" })
            if !named.isEmpty {
                names.append(named)  // function NAME( and local function NAME(
                continue
            }
            // NAME = function(
            var head = line[..<found.lowerBound].trimmingTrailingBlanks()
            guard head.last == "=", !"=~<>".contains(head.dropLast().last ?? " ") else { continue }
            head = head.dropLast().trimmingTrailingBlanks()
            let assigned = String(head.reversed().prefix { isNamePart($0) || $0 == "." || $0 == ":" }.reversed())
            if !assigned.isEmpty { names.append(assigned) }
        }
        return names
    }

    private static func isNamePart(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber
    }
}

extension Substring {
    fileprivate func trimmingTrailingBlanks() -> Substring {
        var text = self
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
