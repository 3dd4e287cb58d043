import FlowTestSupport
import Foundation
import Testing

/// Issue 12's proof: the test suites of real Lua libraries (Penlight, rxi/json.lua, lume,
/// inspect.lua, middleclass), kept as flowpkg projects under `Tests/Fixtures/RealPrograms`, print
/// through `flowpkg run` of the project folder and of its exported package exactly what stock
/// `lua5.4` prints running the same files, and exit with the same status. Penlight's tests load
/// `lfs`, declared in its `externalModules`.
///
/// Each mode has its stock baseline, invoked so that Lua names every chunk as flowpkg does:
/// a folder run (`flowpkg run NAME` from the folder's parent) names files as validate does,
/// `NAME/Sources/x.lua`, as `lua5.4 NAME/Sources/main.lua` does from there; a package run
/// (`flowpkg run NAME.luapkg` from the package's folder) names them `NAME.luapkg/modules/x.lua`,
/// as `lua5.4` does running the package's own entries unzipped into a folder of that name. So
/// error messages and `debug.getinfo` are compared too, and the package baseline runs exactly the
/// bytes the package holds.
@Suite struct RunRealProgramsTests {
    static let fixtures = CLITestFolder.url.deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealPrograms").standardizedFileURL

    /// One fixture: its folder name, the script arguments of each run (one process per list);
    /// and the modes that cannot be compared at all, each reason also in the fixture's README.
    /// Every run that is compared is compared by stdout and exit status.
    struct Suite: CustomTestStringConvertible, Sendable {
        var name: String
        var runs: [[String]] = [[]]
        var notComparable: [String: String] = [:]
        var testDescription: String { name }
    }

    static let penlightTests: [[String]] = {
        let sources = fixtures.appendingPathComponent("penlight/Sources")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return files.filter { $0.hasPrefix("test") && $0.hasSuffix(".lua") }
            .map { [String($0.dropLast(4))] }
            .sorted { $0[0] < $1[0] }
    }()

    static let suites: [Suite] = [
        Suite(name: "json"),
        Suite(name: "inspect"),
        Suite(
            name: "lume",
            notComparable: [
                "package":
                    "lume's tester.lua prints each check's source line, read back from the test file with io.lines(debug.getinfo(2).short_src); a package has no files to read, so only the folder run can print them"
            ]),
        Suite(name: "middleclass"),
        // test-import_into: pl.app.require_here adds the folder of arg[0] (the start module's
        // file) to package.path and requires 'mod52' through it: flowpkg's require finds
        // lua/mod52.lua there, inside the project or the package, as lua5.4 finds the file.
        Suite(name: "penlight", runs: penlightTests),
    ]

    @Test func everyPenlightTestIsRun() {
        // The runner takes the test names as arguments; the list is the Sources folder's content.
        #expect(Self.penlightTests.count == 41, "\(Self.penlightTests)")
    }

    /// How one mode runs: flowpkg in `directory` on `target`, stock Lua in `stockDirectory` on
    /// `script` with `luaPath`.
    struct Mode: Sendable {
        var name: String
        var directory: URL
        var stockDirectory: URL
        var luaPath: String
        /// LUA_PATH for flowpkg, when it differs from stock Lua's (see the package mode).
        var flowpkgLuaPath: String?
        var script: String
        var target: String
    }

    struct Job: Sendable {
        var mode: Mode
        var arguments: [String]
    }

    @Test(arguments: suites)
    func folderAndPackagePrintWhatStockLuaPrints(_ suite: Suite) throws {
        let scratch = try Scratch("cli")
        defer { scratch.remove() }
        let name = suite.name
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent(name),
            to: scratch.url.appendingPathComponent(name))
        let packages = scratch.url.appendingPathComponent("packages")
        let unzipped = scratch.url.appendingPathComponent("unzipped")
        for folder in [packages, unzipped] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let package = packages.appendingPathComponent(name + ".luapkg")
        let export = try FlowpkgProcess.run(["export", name, "-o", package.path], in: scratch.url)
        var modes = [
            Mode(
                name: "folder", directory: scratch.url, stockDirectory: scratch.url,
                luaPath: "\(name)/Sources/?.lua;\(name)/Sources/?/init.lua",
                script: "\(name)/Sources/main.lua", target: name)
        ]
        // A suite whose program requires its busted spec files runs them from the folder only:
        // specs are never packaged (issue 45); `flowpkg test` is how they run (TestCommandTests).
        let specs =
            FileManager.default.enumerator(atPath: scratch.url.appendingPathComponent(name).path)?
            .contains { ($0 as? String)?.hasSuffix("_spec.lua") == true } ?? false
        if export.status == 0, !specs {
            let unzip = ProgramRun.run(
                ProgramRun.env,
                ["unzip", "-q", package.path, "-d", unzipped.appendingPathComponent(name + ".luapkg").path],
                in: scratch.url, environment: [:])
            try #require(unzip.status == 0, "unzip \(name).luapkg: \(unzip.stderr)")
            let modules = "\(name).luapkg/modules"
            // The one difference a package run cannot avoid: programs that start a child Lua
            // from arg[-1] (Penlight's test-app, through pl.app.lua) hand it LUA_PATH, and a
            // child Lua (flowpkg running a lone file, as lua5.4 does) reads files. The baseline's
            // relative LUA_PATH names the unzipped copy's files; beside flowpkg the same relative
            // path names the inside of the .luapkg file, which no child can read. So flowpkg's
            // package runs get LUA_PATH naming the unzipped copy by its absolute path: the same
            // files for the children. flowpkg's own require never reads LUA_PATH in a package run.
            let unzippedModules = unzipped.appendingPathComponent(modules).path
            modes.append(
                Mode(
                    name: "package", directory: packages, stockDirectory: unzipped,
                    luaPath: "\(modules)/?.lua;\(modules)/?/init.lua",
                    flowpkgLuaPath: "\(unzippedModules)/?.lua;\(unzippedModules)/?/init.lua",
                    script: "\(modules)/main.lua", target: name + ".luapkg"))
        }
        modes.removeAll { suite.notComparable[$0.name] != nil }
        let jobs = modes.flatMap { mode in suite.runs.map { Job(mode: mode, arguments: $0) } }
        let results = ParallelRuns.map(jobs) { job -> (stock: ProgramRun.Result, flowpkg: ProgramRun.Result) in
            let environment = ["LUA_PATH": job.mode.luaPath, "NO_COLOR": "1"]
            let stock = ProgramRun.run(
                ProgramRun.env, ["lua5.4", job.mode.script] + job.arguments,
                in: job.mode.stockDirectory, environment: environment)
            var flowpkgEnvironment = environment
            if let path = job.mode.flowpkgLuaPath { flowpkgEnvironment["LUA_PATH"] = path }
            let flowpkg = ProgramRun.run(
                FlowpkgProcess.executable, ["run", job.mode.target, "--"] + job.arguments,
                in: job.mode.directory, environment: flowpkgEnvironment)
            return (stock, flowpkg)
        }
        // Every suite prints under stock Lua; silence would mean lua5.4 did not run at all.
        #expect(
            results.contains { !$0.stock.stdout.isEmpty },
            "lua5.4 printed nothing: \(results.first?.stock.stderr ?? "")")

        #expect(export.status == 0, "flowpkg export \(name) failed:\n\(export.stderr)\(export.stdout)")
        for (job, result) in zip(jobs, results) {
            let label = "\(([name] + job.arguments).joined(separator: " ")) (\(job.mode.name))"
            #expect(
                result.flowpkg.status == result.stock.status,
                "\(label): exit \(result.flowpkg.status), lua5.4 exit \(result.stock.status)\n\(result.flowpkg.stderr)")
            #expect(
                result.flowpkg.stdout == result.stock.stdout,
                "\(label) printed:\n\(result.flowpkg.stdout)\nlua5.4 printed:\n\(result.stock.stdout)\nflowpkg stderr:\n\(result.flowpkg.stderr)"
            )
        }
    }
}

/// A process run to completion with its output captured (stock `lua5.4` or `flowpkg`), by the
/// one runner, `FlowpkgProcess`.
enum ProgramRun {
    typealias Result = FlowpkgProcess.Result

    /// `env`, to run a command found on PATH (`lua5.4`, `unzip`).
    static let env = URL(fileURLWithPath: "/usr/bin/env")

    /// Runs `executable` with stdin closed; a launch failure is a result with status -1 and the
    /// error as stderr, so it shows as a difference.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String])
        -> Result
    {
        do {
            return try FlowpkgProcess.run(arguments, in: directory, environment: environment, executable: executable)
        } catch {
            return Result(status: -1, stdout: "", stderr: "could not run \(executable.path) \(arguments): \(error)")
        }
    }
}

/// Maps `items` on all cores (Penlight's 41 test files each run four times).
enum ParallelRuns {
    final class Slots<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [T?]
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: T) { lock.withLock { values[index] = value } }
        var all: [T] { lock.withLock { values.map { $0! } } }
    }

    static func map<Item: Sendable, T>(_ items: [Item], _ transform: @escaping @Sendable (Item) -> T) -> [T] {
        let slots = Slots<T>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            slots.set(index, transform(items[index]))
        }
        return slots.all
    }
}
