import FlowDiagnostics
import FlowPackage

// FP405: reads of globals nothing defines.
extension ProjectRules {
    /// FP405, luacheck's 113: a read of a global that neither the environment, the project's
    /// globals nor a deliberate definition (`_G.x = v`, `rawset(_G, "x", v)`) defines. As in
    /// luacheck, a plain `x = v` declares nothing, and a free name is a global whatever `_ENV`
    /// holds; `implicitlyDefined` are the globals luacheck's `allow_defined` options define.
    static func undefinedGlobals(
        _ modules: [Module], environment: Environment, unanalysedSources: [[UInt8]] = [],
        everyRead: Bool = false, implicitlyDefined: Set<String> = [], options: ((String) -> LintOptions)? = nil,
        judging: Set<String>? = nil, globals: GlobalTables? = nil
    ) -> [Diagnostic] {
        // What every module defines, and where a global is set without being declared (the
        // message names the first such place): `globals`, the tables of `modules`, when kept.
        let globals = globals ?? GlobalTables(modules: modules)
        func defines(_ name: String) -> Bool {
            environment.globals.contains(name) || implicitlyDefined.contains(name) || globals.defines(name)
        }
        var diagnostics: [Diagnostic] = []
        // Made at the first name that needs a hint: most runs have none to give.
        var suggestions: Suggestions?
        var mentionedElsewhere: [String: Bool] = [:]
        for module in modules where judging?.contains(module.file) ?? true {
            var reported: Set<String> = []
            let fileOptions = options?(module.file)
            func isDefined(_ name: String) -> Bool {
                guard let fileOptions else { return defines(name) || environment.defines(global: name) }
                if fileOptions.notGlobals.contains(name) { return false }
                return defines(name) || fileOptions.defines(global: name, in: environment)
            }
            for read in module.facts.globalReads where !isDefined(read.name) {
                // Tested before use (`table.unpack or unpack`, `if setfenv then`), a global of another
                // Lua version is portable code; any other name is a typo all the same (issue 34:
                // `local cfg = configuraton or {}`).
                let isPortable =
                    module.facts.guardedReadPlaces.contains(read.location)
                    && Environment.legacyGlobals[read.name] != nil
                guard !isPortable, reported.insert(read.name).inserted || everyRead else { continue }
                if !unanalysedSources.isEmpty {
                    // A module that did not compile may define it: its error is the one to fix.
                    let mentioned =
                        mentionedElsewhere[read.name] ?? unanalysedSources.contains { Self.mayDefine($0, read.name) }
                    mentionedElsewhere[read.name] = mentioned
                    if mentioned { continue }
                }
                let message: String
                let hint: String
                if let set = globals.setAt(read.name, in: modules) {
                    message = "'\(read.name)' is not defined: it is only set as a global, which declares nothing"
                    hint =
                        "set at \(set.file):\(set.line): declare it in \"globals\" in flowpkg.json, or define it with _G.\(read.name) = ..."
                } else {
                    message =
                        "'\(read.name)' is not defined: no module, the '\(environment.name)' environment nor the project's globals define it"
                    if let legacy = Environment.legacyGlobals[read.name] {
                        hint = legacy
                    } else if let close = Self.closest(
                        to: read.name, in: &suggestions,
                        environment.globals.union(implicitlyDefined).union(globals.names))
                    {
                        hint = "did you mean '\(close)'?"
                    } else {
                        hint = "if the host defines it, add it to \"globals\" in flowpkg.json"
                    }
                }
                diagnostics.append(
                    Diagnostic(
                        severity: .warning, code: .undefinedGlobal, message: message, file: module.file,
                        line: read.location.line, column: read.location.column, hint: hint))
            }
        }
        return diagnostics
    }

    /// Whether a module that did not compile may define the global `word`: a line's code (not a
    /// comment) sets it (`word =`, `function word`, `_G.word`). A mere mention defines nothing
    /// (issue 46: a syntax error in one module hid every undefined global named in its text).
    static func mayDefine(_ text: [UInt8], _ word: String) -> Bool {
        let needle = Array(word.utf8)
        guard !needle.isEmpty, needle.count <= text.count else { return false }
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }
        var lineStart = 0
        var index = 0
        while index + needle.count <= text.count {
            if text[index] == 0x0A { lineStart = index + 1 }
            defer { index += 1 }
            guard text[index] == needle[0], text[index..<(index + needle.count)].elementsEqual(needle),
                index == 0 || !isWordByte(text[index - 1]),
                index + needle.count == text.count || !isWordByte(text[index + needle.count])
            else { continue }
            let before = text[lineStart..<index]
            if before.indices.contains(where: { $0 + 1 < index && text[$0] == 0x2D && text[$0 + 1] == 0x2D }) {
                continue
            }
            var after = index + needle.count
            while after < text.count, text[after] == 0x20 || text[after] == 0x09 { after += 1 }
            if after < text.count, text[after] == UInt8(ascii: "="), after + 1 >= text.count || text[after + 1] != 0x3D
            {
                return true
            }
            let prefix = String(decoding: before, as: UTF8.self)
            if prefix.hasSuffix("function ") || prefix.hasSuffix("_G.") { return true }
        }
        return false
    }

    /// `suggestions.closest(to:)`, making `suggestions` from `candidates` on first use.
    static func closest(
        to word: String, in suggestions: inout Suggestions?, _ candidates: @autoclosure () -> Set<String>
    ) -> String? {
        var made = suggestions ?? Suggestions(candidates())
        suggestions = nil  // `made` the only copy: its answers grow in place
        let close = made.closest(to: word)
        suggestions = made
        return close
    }
}
