import FlowTestSupport
import Foundation
import Testing

/// `flowpkg test --watch`: a save reruns exactly the spec files whose requires reached the saved
/// file, through the project's modules and through busted's lpath alike.
@Suite(.serialized) struct TestWatchTests {
    static let specs = [
        "Sources/calc.lua": "return { add = function(a, b) return a + b end }\n",
        "Sources/shapes.lua":
            "local calc = require('calc')\nreturn { perimeter = function(s) return calc.add(s, s) * 2 end }\n",
        "Sources/other.lua": "return {}\n",
        "src/lp.lua": "return { name = 'lp' }\n",
        "spec/a_spec.lua": "it('adds', function() assert.are.equal(3, require('calc').add(1, 2)) end)\n",
        "spec/b_spec.lua": "it('measures', function() assert.are.equal(8, require('shapes').perimeter(2)) end)\n",
        "spec/c_spec.lua": "it('finds lpath', function() assert.are.equal('lp', require('lp').name) end)\n",
        "spec/d_spec.lua": "it('stands alone', function() assert.is_true(true) end)\n",
    ]

    @Test func aSaveRerunsExactlyTheSpecFilesThatReachIt() throws {
        let project = try TestCommandTests.Project(specs: Self.specs)
        defer { project.remove() }
        let watching = try BackgroundFlowpkg(
            ["test", "--watch"], in: project.folder, environment: ["FLOWPKG_CACHE": project.cache.path])
        defer { watching.interrupt() }
        #expect(watching.waitFor(timeout: 60) { _, stderr in stderr.contains("watch: waiting for saves") })
        #expect(watching.stdout.contains("4 successes / 0 failures"), "\(watching.stdout)\(watching.stderr)")

        func save(_ path: String, _ text: String? = nil) throws {
            let file = project.folder.appendingPathComponent(path)
            let old = try String(contentsOf: file, encoding: .utf8)
            // Written whole and renamed into place, as editors save: a plain write truncates
            // first, and on a loaded machine a wake-up between the two sees the file change twice.
            try Data((text ?? old + "-- saved\n").utf8).write(to: file, options: .atomic)
        }
        func expectRun(_ line: String, then summary: String) {
            let seen = watching.waitFor(timeout: 30) { stdout, stderr in
                stderr.contains(line)
                    && stdout.split(separator: "\n").last(where: { !$0.isEmpty })?.hasPrefix(summary) == true
            }
            #expect(seen, "\(line)\n--- stdout\n\(watching.stdout)\n--- stderr\n\(watching.stderr)")
        }
        try save("Sources/shapes.lua")
        expectRun(
            "watch: Sources/shapes.lua saved; running spec/b_spec.lua\n",
            then: "1 success / 0 failures / 0 errors / 0 pending : ")
        try save("Sources/calc.lua", "return { add = function(a, b) return a - b end }\n")
        expectRun(
            "watch: Sources/calc.lua saved; running spec/a_spec.lua, spec/b_spec.lua\n",
            then: "0 successes / 2 failures / 0 errors / 0 pending : ")
        try save("src/lp.lua")
        expectRun(
            "watch: src/lp.lua saved; running spec/c_spec.lua\n",
            then: "1 success / 0 failures / 0 errors / 0 pending : ")
        try save("spec/d_spec.lua")
        expectRun(
            "watch: spec/d_spec.lua saved; running spec/d_spec.lua\n",
            then: "1 success / 0 failures / 0 errors / 0 pending : ")
        try save("Sources/other.lua")
        #expect(
            watching.waitFor(timeout: 30) { _, stderr in
                stderr.contains("watch: Sources/other.lua saved; no spec file requires it\n")
            }, "\(watching.stderr)")
    }
}
