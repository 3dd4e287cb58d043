import FlowProject
import Foundation
import Testing

@testable import FlowLanguageServer

/// The validation session behind the server: an edit re-analyses the changed module only, and
/// the modules depending on it get their findings from their kept facts.
@Suite struct IncrementalAnalysisTests {
    @Test func anEditReanalysesOnlyTheChangedModuleAndUpdatesItsDependents() throws {
        let project = try SampleProject()
        defer { project.remove() }
        for index in 0..<20 { try project.write("Sources/other\(index).lua", "return \(index)\n") }
        let session = ValidationSession(projectAt: project.root)
        #expect(session.modulesAnalysed == 22)
        let main = project.url("Sources/Main.lua").path
        let util = project.url("Sources/app/util.lua").path
        #expect(session.diagnosticsByFile().isEmpty)

        // util.lua no longer defines the global Main.lua reads.
        #expect(
            session.setBuffer(Array("local M = {}\nfunction M.greet(s) return s end\nreturn M\n".utf8), forPath: util))
        #expect(session.modulesAnalysed == 23)
        let found = session.diagnosticsByFile()
        #expect(found[main]?.map(\.code.code) == ["FP405"])
        #expect(found[util] == nil)

        // util.lua stops being a module Main.lua can require? No: a require cycle instead.
        #expect(
            session.setBuffer(Array("local m = require \"Main\"\n_G.helperValue = 1\nreturn {}\n".utf8), forPath: util))
        #expect(session.modulesAnalysed == 24)
        let cycle = session.diagnosticsByFile()
        #expect(cycle.values.joined().contains { $0.code.code == "FP403" })

        // Back to the file on disk: what validate says of the project.
        #expect(session.setBuffer(nil, forPath: util))
        #expect(session.modulesAnalysed == 25)
        #expect(session.diagnosticsByFile().isEmpty)
        #expect(Validator.validate(projectAt: project.root).diagnostics.isEmpty)

        // A file that is not a module is not taken.
        #expect(!session.setBuffer([], forPath: project.url("notes.lua").path))
    }

    @Test func theSessionReportsWhatValidateReports() throws {
        let project = try SampleProject()
        defer { project.remove() }
        try project.write("Sources/bad.lua", "local x = require \"nowhere\"\npirnt(x)\nlocal y = \n")
        try project.write("Sources/typo.lua", "pirnt(1) -- flowpkg: ignore FP405\nprnit(2)\n")
        try project.write("Resources/unused.txt", "u")
        let session = ValidationSession(projectAt: project.root)
        let byFile = session.diagnosticsByFile().values.joined().sorted(by: ValidationReport.precedes)
        let validate = Validator.validate(projectAt: project.root).diagnostics
        #expect(!validate.isEmpty)
        #expect(Array(byFile) == validate)
    }

    /// Scripts (`*.lib.lua`, files under a dotted folder) are checked and analysed as validate
    /// does, from the file or from an editor's buffer.
    @Test func scriptsAreCheckedAsValidateChecksThem() throws {
        let project = try SampleProject()
        defer { project.remove() }
        try project.write("Sources/muc/password.lib.lua", "local x = \n")
        try project.write("Sources/maps/one.wmf/init.lua", "pirnt(1)\n")
        let session = ValidationSession(projectAt: project.root)
        let script = project.url("Sources/muc/password.lib.lua").path
        let byFile = session.diagnosticsByFile()
        #expect(byFile[script]?.map(\.code.code) == ["FP301"])
        #expect(byFile[project.url("Sources/maps/one.wmf/init.lua").path]?.map(\.code.code) == ["FP405"])
        #expect(
            Array(byFile.values.joined().sorted(by: ValidationReport.precedes))
                == Validator.validate(projectAt: project.root).diagnostics)

        // Fixed in the buffer: the script's findings are gone.
        #expect(session.analyses(path: script))
        #expect(session.module(atPath: script) == nil)
        #expect(session.setBuffer(Array("return 1\n".utf8), forPath: script))
        #expect(session.diagnosticsByFile()[script] == nil)
    }
}
