import FlowDiagnostics
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Findings a project chose not to hear about, as luacheck users expect:
///
/// - `-- flowpkg: ignore FP405` at the end of a line: those codes on that line. Alone on its
///   line, the comment covers the next line too. Without codes, every static-analysis code.
/// - `-- flowpkg: ignore-file FP405, FP402` anywhere in a module: those codes in the whole file.
/// - flowpkg.json's `ignore`: `"FP405"` everywhere, `{"code": "FP406", "path": "Resources/runtime/*"}`
///   for the files matching a glob relative to the project folder.
///
/// luacheck's own comments are honoured for undefined globals (FP405, luacheck's 113): `--
/// luacheck: ignore`, `ignore 113`, `ignore 113/name`, `globals name`, `read globals name`, on a
/// line for that line, alone on a line for the rest of the file.
///
/// Only static-analysis and lint findings (FP401–FP483) can be ignored: the others are files or code Lua
/// itself refuses. Comments are looked for only in the modules that have such a finding, after
/// everything is checked, so a project without findings pays nothing.
enum Suppressions {
    /// Whether `code` is one a project may ignore.
    static func isSuppressible(_ code: String) -> Bool { suppressibleCodes.contains(code) }

    static let suppressibleCodes = Set(
        [DiagnosticCode](
            [
                .unknownRequire, .unknownRequireWhenRun, .requireCycle, .unknownResource, .undefinedGlobal,
                .unnamedResource, .requireCycleWhenRun, .unknownResourceWhenRun,
            ] + DiagnosticCodes.byLuacheckNumber.values + [.unknownModuleField, .tooManyArguments, .missingArgument]
                + TypeCheckStep.codes
        ).map(\.code))

    /// The suppression comments of one Lua file.
    struct FileRules: Equatable {
        /// Codes ignored in the whole file.
        var fileCodes: Set<String> = []
        /// True after an `ignore-file` without codes: every code, in the whole file.
        var wholeFile = false
        /// Per line: the codes ignored there, or an empty set for every code.
        var lines: [Int: Set<String>] = [:]
        /// From luacheck comments alone on their line: undefined globals not reported from that
        /// line on, by name; `luacheckAllFrom` for every name.
        var luacheckGlobals: [String: Int] = [:]
        var luacheckAllFrom: Int?

        func ignores(_ code: String, line: Int?, global: String? = nil) -> Bool {
            if wholeFile || fileCodes.contains(code) { return true }
            if code == DiagnosticCode.undefinedGlobal.code, let line {
                if let from = luacheckAllFrom, line >= from { return true }
                if let global, let from = luacheckGlobals[global], line >= from { return true }
            }
            guard let line, let codes = lines[line] else { return false }
            return codes.isEmpty || codes.contains(code)
        }
    }

    /// Reads the `-- flowpkg: ignore ...` and `-- flowpkg: ignore-file ...` comments of `source`.
    static func rules(in source: [UInt8]) -> FileRules {
        var rules = FileRules()
        let marker = Array("flowpkg:".utf8)
        let luacheck = Array("luacheck:".utf8)
        var line = 1
        var lineStart = 0
        var index = 0
        let count = source.count
        while index < count {
            let byte = source[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            let isLuacheck =
                byte == UInt8(ascii: "l") && index + luacheck.count <= count
                && source[index..<(index + luacheck.count)].elementsEqual(luacheck)
            guard
                isLuacheck
                    || (byte == UInt8(ascii: "f") && index + marker.count <= count
                        && source[index..<(index + marker.count)].elementsEqual(marker))
            else {
                index += 1
                continue
            }
            let markerLength = isLuacheck ? luacheck.count : marker.count
            // `--`, then spaces, right before the marker.
            var before = index - 1
            while before >= lineStart, source[before] == 0x20 || source[before] == 0x09 { before -= 1 }
            guard before - 1 >= lineStart, source[before] == UInt8(ascii: "-"), source[before - 1] == UInt8(ascii: "-")
            else {
                index += markerLength
                continue
            }
            var lineEnd = index
            while lineEnd < count, source[lineEnd] != 0x0A, source[lineEnd] != 0x0D { lineEnd += 1 }
            let words = String(decoding: source[(index + markerLength)..<lineEnd], as: UTF8.self)
                .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            var isAlone = true
            var scan = before - 2
            while scan >= lineStart {
                if source[scan] != 0x20 && source[scan] != 0x09 { isAlone = false; break }
                scan -= 1
            }
            if isLuacheck {
                luacheckRule(words.map(String.init), line: line, isAlone: isAlone, into: &rules)
                index = lineEnd
                continue
            }
            var codes: Set<String> = []
            for word in words.dropFirst() {
                guard isSuppressible(String(word)) else { break }  // the rest is a reason
                codes.insert(String(word))
            }
            switch words.first {
            case "ignore-file":
                if codes.isEmpty { rules.wholeFile = true } else { rules.fileCodes.formUnion(codes) }
            case "ignore":
                for target in isAlone ? [line, line + 1] : [line] {
                    if let known = rules.lines[target] {
                        // An empty set already means every code.
                        rules.lines[target] = known.isEmpty || codes.isEmpty ? [] : known.union(codes)
                    } else {
                        rules.lines[target] = codes
                    }
                }
            default:
                break
            }
            index = lineEnd
        }
        return rules
    }

    /// What a luacheck comment says about undefined globals (luacheck's warnings 11x).
    private static func luacheckRule(_ words: [String], line: Int, isAlone: Bool, into rules: inout FileRules) {
        guard let first = words.first else { return }
        var names: [String] = []
        var all = false
        switch first {
        case "ignore":
            if words.count == 1 { all = true }
            for word in words.dropFirst() {
                // `113`, `11`, `1`, `11x`, `113/name`, or a bare variable name.
                let parts = word.split(separator: "/", maxSplits: 1)
                let code = String(parts[0])
                let isCode = code.allSatisfy { $0.isNumber || $0 == "x" } && code.first?.isNumber == true
                if isCode {
                    guard "113".hasPrefix(code.replacingAll("x", with: "")) || code == "11x" else {
                        continue
                    }
                    if parts.count == 2 { names.append(String(parts[1])) } else { all = true }
                } else if code.first?.isLetter == true || code.first == "_" {
                    names.append(code)
                } else {
                    break
                }
            }
        case "globals", "read", "new":
            names = words.dropFirst().filter { $0 != "globals" && $0 != "read" }
        default:
            return
        }
        guard all || !names.isEmpty else { return }
        if isAlone {
            if all { rules.luacheckAllFrom = min(rules.luacheckAllFrom ?? line, line) }
            for name in names { rules.luacheckGlobals[name] = min(rules.luacheckGlobals[name] ?? line, line) }
        } else {
            // An empty set already means every code.
            if let known = rules.lines[line] {
                if !known.isEmpty { rules.lines[line] = known.union([DiagnosticCode.undefinedGlobal.code]) }
            } else {
                rules.lines[line] = [DiagnosticCode.undefinedGlobal.code]
            }
        }
    }

    /// Whether `source` holds `flowpkg:` and `luacheck:` anywhere. Looks back from each `:`
    /// only, so it costs a fraction of the comment parsers it spares (`rules(in:)` and
    /// `LuacheckComments` were 3.8% of validate's CPU on the benchmark tree, where nearly every
    /// file has findings and almost none such a comment: Benchmarks/README.md, lint speed).
    static func markers(in source: [UInt8]) -> (flowpkg: Bool, luacheck: Bool) {
        source.withUnsafeBufferPointer { bytes in
            var flowpkg = false
            var luacheck = false
            let flowpkgWord = "flowpkg".utf8
            let luacheckWord = "luacheck".utf8
            guard let base = bytes.baseAddress else { return (false, false) }
            let raw = UnsafeRawPointer(base)
            var index = 0
            while index < bytes.count {
                // Eight bytes at a time past those with no `:` (the zero-byte test on word ^ ":"×8).
                if index + 8 <= bytes.count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ 0x3A3A_3A3A_3A3A_3A3A
                    if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 == 0 {
                        index += 8
                        continue
                    }
                }
                if bytes[index] == UInt8(ascii: ":") {
                    if !flowpkg, index >= 7, bytes[(index - 7)..<index].elementsEqual(flowpkgWord) { flowpkg = true }
                    if !luacheck, index >= 8, bytes[(index - 8)..<index].elementsEqual(luacheckWord) {
                        luacheck = true
                    }
                    if flowpkg && luacheck { break }
                }
                index += 1
            }
            return (flowpkg, luacheck)
        }
    }

    /// A Lua file's suppression comments: its flowpkg rules and its luacheck comments.
    struct Comments {
        var rules = FileRules()
        var luacheck = LuacheckComments(source: [])
        /// True when the file holds neither `flowpkg:` nor `luacheck:`.
        var isEmpty = true
    }

    /// The suppression comments of a Lua file's bytes. Most files have none: one quick pass
    /// (`markers(in:)`) says so.
    static func comments(in bytes: [UInt8]) -> Comments {
        let (flowpkg, luacheck) = markers(in: bytes)
        guard flowpkg || luacheck else { return Comments() }
        return Comments(
            rules: rules(in: bytes), luacheck: LuacheckComments(source: luacheck ? bytes : []), isEmpty: false)
    }

    /// The global an FP405 message is about: `'name' is not defined: ...`.
    static func globalName(in message: String) -> String? {
        guard message.hasPrefix("'"), let end = message.dropFirst().firstIndex(of: "'") else { return nil }
        return String(message[message.index(after: message.startIndex)..<end])
    }

    /// `diagnostics` without those the project ignores: by its `ignore` list (paths relative to
    /// `root`), then by the comments of the Lua files they point into.
    ///
    /// FP405 comes for every read of an undefined global, as luacheck's 113 does: ignoring one
    /// line does not hide the same mistake on another.
    /// `contents` gives a Lua file's text when it is not the file's on disk (an editor's unsaved
    /// buffer); nil from it, or no `contents`, reads the file.
    /// `known` gives a file's comments already read from the bytes validation checked (see
    /// `comments(in:)`), so most files are not read a second time.
    static func apply(
        _ diagnostics: [Diagnostic], root: String, ignore: [ProjectFile.IgnoreRule],
        contents: ((String) -> [UInt8]?)? = nil, known: ((String) -> Comments?)? = nil
    ) -> [Diagnostic] {
        guard diagnostics.contains(where: { isSuppressible($0.code.code) }) else { return diagnostics }
        var commentsByFile: [String: Comments] = [:]
        // Findings come grouped by file: the last file's comments spare a lookup by its path.
        var last: (file: String, comments: Comments)?
        return diagnostics.filter { diagnostic in
            guard isSuppressible(diagnostic.code.code) else { return true }
            for rule in ignore where rule.code == diagnostic.code.code {
                guard let pattern = rule.path else { return false }
                let relative = diagnostic.file.map {
                    $0.hasPrefix(root + "/") ? String($0.dropFirst(root.count + 1)) : $0
                }
                if let relative, fnmatch(pattern, relative, 0) == 0 { return false }
            }
            guard let file = diagnostic.file, file.hasSuffix(".lua") else { return true }
            let comments: Comments
            if let last, last.file == file {
                comments = last.comments
            } else if let read = commentsByFile[file] {
                comments = read
            } else if let read = contents?(file).map(Self.comments(in:)) ?? known?(file) {
                comments = read
                commentsByFile[file] = comments
            } else {
                comments = Self.comments(in: FileManager.default.contents(atPath: file).map { [UInt8]($0) } ?? [])
                commentsByFile[file] = comments
            }
            last = (file, comments)
            // Most files have no suppression comment at all.
            guard !comments.isEmpty else { return true }
            if let number = LuacheckComments.numbers[diagnostic.code.code], let line = diagnostic.line,
                comments.luacheck.ignores(
                    number, name: LuacheckComments.name(in: diagnostic.message), line: line,
                    message: diagnostic.message)
            {
                return false
            }
            let global = diagnostic.has(.undefinedGlobal) ? globalName(in: diagnostic.message) : nil
            if comments.rules.ignores(diagnostic.code.code, line: diagnostic.line, global: global) { return false }
            return true
        }
    }
}
