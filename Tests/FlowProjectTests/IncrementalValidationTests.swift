import FlowDiagnostics
import FlowProject
import FlowTestSupport
import Foundation
import Testing

/// An editor's session re-judges, after an edit, only the modules the edit can change (the
/// edited one, its requirers, the readers of the globals it defines or stops defining), and
/// keeps every other module's findings: after any sequence of edits, added and removed modules
/// included, it reports exactly what a fresh `flowpkg validate` of the same text reports.
@Suite struct IncrementalValidationTests {
    /// Seeded sequences of edits over a small project whose modules require, define and read one
    /// another's globals, name resources, call one another's functions with annotated types, and
    /// now and then stop compiling: after each edit, the session's findings and validate's agree.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func editsThroughTheSessionReportWhatValidateReports(seed: UInt64) throws {
        var project = try EditedProject(seed: seed, luacheckrc: seed % 2 == 0)
        defer { project.remove() }
        let session = ValidationSession(projectAt: project.scratch.url)
        try project.expectSameFindings(session, step: "start")
        for step in 0..<40 {
            try project.editOnce(session)
            try project.expectSameFindings(session, step: "seed \(seed), step \(step)")
        }
    }

    /// An edit that changes nothing another module sees (a read of an undefined global, as the
    /// lsp benchmark types it) re-judges the edited module alone.
    @Test func anEditOthersCannotSeeRejudgesOneModule() throws {
        let scratch = try Scratch("incremental")
        defer { scratch.remove() }
        try scratch.file("flowpkg.json", #"{"name": "Big", "identifier": "com.example.big", "version": "1.0.0"}"#)
        for index in 0..<30 {
            let previous =
                index > 0 ? "local previous = require \"m\(index - 1)\"\nprint(previous, value\(index - 1))\n" : ""
            try scratch.file("Sources/m\(index).lua", "local M = {}\n\(previous)_G.value\(index) = 1\nreturn M\n")
        }
        let session = ValidationSession(projectAt: scratch.url)
        #expect(session.diagnosticsByFile().isEmpty)
        let path = scratch.path("Sources/m15.lua").path
        let edited =
            "local M = {}\nlocal previous = require \"m14\"\nprint(previous, value14)\npirnt(1)\n_G.value15 = 1\nreturn M\n"
        session.setBuffer(Array(edited.utf8), forPath: path)
        #expect(session.diagnosticsByFile()[path]?.map(\.code.code) == ["FP405"])
        #expect(session.lastProjectCheck.judged == 1)
        #expect(session.lastProjectCheck.modules == 30)
        #expect(session.lastProjectCheck.linted == 1)

        // Defining a global m16 reads again: m15 and m16 are judged again, the rest kept.
        let defines = "local M = {}\nlocal previous = require \"m14\"\nprint(previous, value14)\nreturn M\n"
        session.setBuffer(Array(defines.utf8), forPath: path)
        let found = session.diagnosticsByFile()
        #expect(found[scratch.path("Sources/m16.lua").path]?.map(\.code.code) == ["FP405"])
        #expect(found[path] == nil)
        #expect(session.lastProjectCheck.judged == 2)
    }

    /// The lint rules judge a module's callers again when its functions' parameters change, a
    /// function comes or goes, or a module adds a field to its table, and no other module; on a
    /// project large enough that they run on a thread of their own.
    @Test func aSignatureChangeRejudgesTheCallersAlone() throws {
        let scratch = try Scratch("incremental")
        defer { scratch.remove() }
        try scratch.file("flowpkg.json", #"{"name": "Big", "identifier": "com.example.big", "version": "1.0.0"}"#)
        let callers = "local lib = require \"lib\"\nprint(lib.f(1, 2), lib.g(1))\nreturn {}\n"
        for index in 0..<3 { try scratch.file("Sources/caller\(index).lua", callers) }
        for index in 0..<70 { try scratch.file("Sources/other\(index).lua", "local M = {}\nreturn M\n") }
        let lib = scratch.path("Sources/lib.lua")
        try scratch.file("Sources/lib.lua", "local M = {}\nfunction M.f(a, b) return a + b end\nreturn M\n")
        let session = ValidationSession(projectAt: scratch.url)
        try expectSame(session, scratch, codes: ["FP481", "FP481", "FP481"])
        #expect(session.lastProjectCheck.linted == 74)
        let edits: [(text: String, codes: [String], linted: Int)] = [
            // Fewer parameters: each call passes too many.
            ("function M.f(a) return a end\n", ["FP482", "FP481", "FP482", "FP481", "FP482", "FP481"], 4),
            // A function added: the field is known, the call checked.
            (
                "function M.f(a, b) return a + b end\nfunction M.g(a, b) return a.x + b end\n",
                Array(repeating: "FP483", count: 3), 4
            ),
            // A body edit that changes no signature: the module alone.
            (
                "function M.f(a, b) return b + a end\nfunction M.g(a, b) return a.x + b end\n",
                Array(repeating: "FP483", count: 3), 1
            ),
            // A function removed.
            ("function M.f(a, b) return a + b end\n", Array(repeating: "FP481", count: 3), 4),
        ]
        for edit in edits {
            try scratch.file("Sources/lib.lua", "local M = {}\n" + edit.text + "return M\n")
            session.setBuffer(nil, forPath: lib.path)
            try expectSame(session, scratch, codes: edit.codes)
            #expect(session.lastProjectCheck.linted == edit.linted)
        }
        // Another module filling lib's table: its fields are no longer all known.
        let filler = scratch.path("Sources/other0.lua")
        try scratch.file("Sources/other0.lua", "local lib = require \"lib\"\nlib.g = print\nreturn {}\n")
        session.setBuffer(nil, forPath: filler.path)
        try expectSame(session, scratch, codes: [])
        #expect(session.lastProjectCheck.linted == 4)
        // Renamed: the callers' and the filler's requires find no module, what it exported is gone.
        try FileManager.default.moveItem(at: lib, to: scratch.path("Sources/lib2.lua"))
        session.reload()
        try expectSame(session, scratch, codes: Array(repeating: "FP401", count: 4))
    }

    /// The session's findings are validate's, and their codes (in report order) are `codes`.
    func expectSame(
        _ session: ValidationSession, _ scratch: Scratch, codes: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let incremental = Array(session.diagnosticsByFile().values.joined()).sorted(by: ValidationReport.precedes)
        let validated = Validator.validate(projectAt: scratch.url).diagnostics
        #expect(incremental == validated, sourceLocation: sourceLocation)
        #expect(validated.map(\.code.code) == codes, sourceLocation: sourceLocation)
    }
}

/// A project of a few modules edited at random (a seeded generator): the snippets below are
/// what can change another module's findings.
private struct EditedProject {
    let scratch: Scratch
    var random: SeededRandom
    var names = ["Main", "a", "b", "c", "lib.d", "lib.e"]

    init(seed: UInt64, luacheckrc: Bool) throws {
        scratch = try Scratch("incremental")
        random = SeededRandom(seed: seed)
        try scratch.file(
            "flowpkg.json",
            #"{"name": "Edited", "identifier": "com.example.edited", "version": "1.0.0", "startModule": "Main"}"#)
        try scratch.file("Resources/data.txt", "d")
        try scratch.file("Resources/unused.txt", "u")
        if luacheckrc {
            try scratch.file(
                ".luacheckrc", "globals = {\"hostG\"}\nfiles[\"Sources/a.lua\"] = {allow_defined_top = true}\n")
        }
        for name in names { try write(name, text: randomModule()) }
    }

    func remove() { scratch.remove() }

    func file(_ name: String) -> String { "Sources/" + name.replacingOccurrences(of: ".", with: "/") + ".lua" }

    func write(_ name: String, text: String) throws { try scratch.file(file(name), text) }

    /// One edit: mostly a module's buffer changed (its file written alike, for validate to read),
    /// sometimes the buffer dropped, a module added or one removed (the session reloads then).
    mutating func editOnce(_ session: ValidationSession) throws {
        let roll = random.next(100)
        if roll < 8 {
            let name = "lib.n\(random.next(1000))"
            names.append(name)
            try write(name, text: randomModule())
            session.reload()
        } else if roll < 12, names.count > 3 {
            let name = names.remove(at: 1 + random.next(names.count - 1))
            try FileManager.default.removeItem(at: scratch.path(file(name)))
            session.reload()
        } else if roll < 15, names.count > 1 {
            // A module renamed: its requirers find it no more, a new name does.
            let position = 1 + random.next(names.count - 1)
            let renamed = "lib.r\(random.next(1000))"
            guard !names.contains(renamed) else { return }
            try FileManager.default.moveItem(at: scratch.path(file(names[position])), to: scratch.path(file(renamed)))
            names[position] = renamed
            session.reload()
        } else {
            let name = names[random.next(names.count)]
            let text = randomModule()
            try write(name, text: text)
            let path = scratch.path(file(name)).path
            session.setBuffer(roll < 18 ? nil : Array(text.utf8), forPath: path)
        }
    }

    func expectSameFindings(_ session: ValidationSession, step: String) throws {
        let incremental = Array(session.diagnosticsByFile().values.joined()).sorted(by: ValidationReport.precedes)
        let validated = Validator.validate(projectAt: scratch.url).diagnostics
        #expect(
            incremental == validated,
            "\(step): session \(incremental.map(Self.line)) validate \(validated.map(Self.line))")
    }

    static func line(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.file.map { ($0 as NSString).lastPathComponent } ?? "-"):\(diagnostic.line ?? 0) \(diagnostic.code.code) \(diagnostic.message)"
    }

    mutating func randomModule() -> String {
        var lines = ["local M = {}"]
        for index in 0..<(1 + random.next(5)) { lines.append(snippet(index)) }
        lines.append("return M")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line or a few: requires (at load, lazily, of modules that are not there), globals
    /// defined, set and read, resources named, functions with typed parameters called from
    /// other modules, module fields read, a suppression comment, a syntax error.
    mutating func snippet(_ index: Int) -> String {
        let other =
            random.next(4) == 0 ? ["nowhere", "lib.dd", "virtual"][random.next(3)] : names[random.next(names.count)]
        let global = "g\(random.next(4))"
        switch random.next(18) {
        case 0: return "local r\(index) = require \"\(other)\""
        case 1: return "local function lazy\(index)() return require \"\(other)\" end"
        case 2: return "_G.\(global) = 1"
        case 3: return "\(global) = 2"
        case 4: return "print(\(global))"
        case 5: return "print(pirnt, hostG)"
        case 6: return "local d\(index) = getResource(\"\(random.next(2) == 0 ? "data" : "missing")\", \"txt\")"
        case 7:
            let parameters = ["a, b", "a", "a, b, c", "a, ...", ""][random.next(5)]
            return "function M.f\(random.next(3))(\(parameters)) return a.x end"
        case 8:
            let arguments = ["1", "", "1, 2", "1, 2, 3"][random.next(4)]
            return
                "local o\(index) = require \"\(other)\"\nprint(o\(index).f\(random.next(3))(\(arguments)), o\(index).nofield)"
        case 9: return "---@param x integer\nfunction M.t\(random.next(2))(x) return x end"
        case 10: return "local o\(index) = require \"\(other)\"\no\(index).t\(random.next(2))(\"s\")"
        case 11: return random.next(3) == 0 ? "local broken = " : "local fine\(index) = 1"
        case 12: return "local s\(index) = \"unused\""
        case 13: return "pirnt(\(index)) -- luacheck: ignore"
        case 14: return "rawset(_G, \"\(global)\", 3)"
        case 15: return "package.preload[\"virtual\"] = function() return {} end"
        case 16: return "local w\(index) = require \"\(other)\"\nw\(index).f\(random.next(3)) = print"
        default: return "---@type string\nlocal typed\(index) = \(random.next(2) == 0 ? "1" : "\"ok\"")"
        }
    }
}

/// splitmix64: the same edits for the same seed, everywhere.
private struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
