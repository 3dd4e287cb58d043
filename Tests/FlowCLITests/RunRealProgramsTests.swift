import Foundation
import Testing

/// Issue 12's proof: the test suites of real Lua libraries (Penlight, rxi/json.lua, lume,
/// inspect.lua, middleclass), kept as flowpkg projects under `Tests/Fixtures/RealPrograms`, print
/// through `flowpkg run` of the project folder and of its exported package exactly what stock
/// `lua5.4` prints running the same files, and exit with the same status. Penlight's tests load
/// `lfs`, declared in its `externalModules`.
///
/// Each mode has its stock baseline, invoked as a user would to get the same chunk names:
/// a folder run (`flowpkg run NAME` from the folder's parent) names files as validate does
/// (`NAME/Sources/x.lua`), as `lua5.4 NAME/Sources/main.lua` does from there; a package has no
/// folder, its modules are named by their path in the package (`x.lua`), as `lua5.4 main.lua`
/// names them run inside `Sources/`. Both runs of a pair share the working directory and env.
@Suite struct RunRealProgramsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealPrograms").standardizedFileURL

    /// One fixture: its folder name, the script arguments of each run (one process per list),
    /// and, per mode, the gap owned by other work that still makes it differ from stock Lua.
    struct Suite: CustomTestStringConvertible, Sendable {
        var name: String
        var runs: [[String]] = [[]]
        var knownGaps: [String: String] = [:]
        var testDescription: String { name }
    }

    static let penlightTests: [[String]] = {
        let sources = fixtures.appendingPathComponent("penlight/Sources")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return files.filter { $0.hasPrefix("test") && $0.hasSuffix(".lua") }
            .map { [String($0.dropLast(4))] }
            .sorted { $0[0] < $1[0] }
    }()

    static let slashRequire = "require 'spec/metamethods_lua_5_2' (a '/' in a module name, which stock Lua's searcher turns into a path) fails: 'not a valid module name' (findings-for-runtime.md, findings-for-validate.md)"
    static let penlightGaps = "module names with '-' (test-app.lua ...: FP201, validate branch), script arguments as '...' of the start module and C modules from externalModules ('lfs') (runtime branch)"

    static let suites: [Suite] = [
        Suite(name: "json"),
        Suite(name: "inspect"),
        Suite(name: "lume", knownGaps: [
            "folder": "a project folder's chunk names: tester.lua prints short_src and reads it back with io.lines; flowpkg names the chunk 'test_lume.lua', stock Lua and validate 'lume/Sources/test_lume.lua' (runtime branch: file names in runtime errors)",
        ]),
        Suite(name: "middleclass", knownGaps: [
            "folder": slashRequire + "; and a project folder's chunk names in error lines ('spec/x.lua:125:' where stock Lua says 'middleclass/Sources/spec/x.lua:125:', runtime branch)",
            "package": slashRequire,
        ]),
        Suite(name: "penlight", runs: penlightTests, knownGaps: ["folder": penlightGaps, "package": penlightGaps]),
    ]

    @Test func everyPenlightTestIsRun() {
        // The runner takes the test names as arguments; the list is the Sources folder's content.
        #expect(Self.penlightTests.count == 41, "\(Self.penlightTests)")
    }

    struct Mode: Sendable {
        var name: String
        var directory: URL
        var luaPath: String
        var script: String
        var target: String
    }

    struct Job: Sendable {
        var mode: Mode
        var arguments: [String]
    }

    @Test(arguments: suites)
    func folderAndPackagePrintWhatStockLuaPrints(_ suite: Suite) throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let project = scratch.url.appendingPathComponent(suite.name)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(suite.name), to: project)
        let package = scratch.url.appendingPathComponent(suite.name + ".luapkg")
        let export = try FlowpkgProcess.run(["export", suite.name, "-o", package.path], in: scratch.url)

        let folder = Mode(name: "folder", directory: scratch.url,
                          luaPath: "\(suite.name)/Sources/?.lua;\(suite.name)/Sources/?/init.lua",
                          script: "\(suite.name)/Sources/main.lua", target: suite.name)
        let packaged = Mode(name: "package", directory: project.appendingPathComponent("Sources"),
                            luaPath: "?.lua;?/init.lua", script: "main.lua", target: package.path)
        let modes = export.status == 0 ? [folder, packaged] : [folder]
        let jobs = modes.flatMap { mode in suite.runs.map { Job(mode: mode, arguments: $0) } }
        let results = ParallelRuns.map(jobs) { job -> (stock: ProgramRun.Result, flowpkg: ProgramRun.Result) in
            let environment = ["LUA_PATH": job.mode.luaPath, "NO_COLOR": "1"]
            let stock = ProgramRun.run(ProgramRun.stockLua, [job.mode.script] + job.arguments,
                                       in: job.mode.directory, environment: environment)
            let flowpkg = ProgramRun.run(FlowpkgProcess.executable, ["run", job.mode.target, "--"] + job.arguments,
                                         in: job.mode.directory, environment: environment)
            return (stock, flowpkg)
        }

        // Every suite prints under stock Lua; silence would mean lua5.4 did not run at all.
        #expect(results.contains { !$0.stock.stdout.isEmpty }, "lua5.4 printed nothing: \(results.first?.stock.stderr ?? "")")

        for mode in [folder, packaged] {
            let compare = {
                guard modes.contains(where: { $0.name == mode.name }) else {
                    Issue.record("flowpkg export \(suite.name) failed:\n\(export.stderr)\(export.stdout)")
                    return
                }
                for (job, result) in zip(jobs, results) where job.mode.name == mode.name {
                    let label = "\(([suite.name] + job.arguments).joined(separator: " ")) (\(mode.name))"
                    #expect(result.flowpkg.status == result.stock.status,
                            "\(label): exit \(result.flowpkg.status), lua5.4 exit \(result.stock.status)\n\(result.flowpkg.stderr)")
                    #expect(result.flowpkg.stdout == result.stock.stdout,
                            "\(label) printed:\n\(result.flowpkg.stdout)\nlua5.4 printed:\n\(result.stock.stdout)\nflowpkg stderr:\n\(result.flowpkg.stderr)")
                }
            }
            if let gap = suite.knownGaps[mode.name] {
                withKnownIssue(Comment(rawValue: gap)) { compare() }
            } else {
                compare()
            }
        }
    }
}

/// A process run to completion with its output captured (stock `lua5.4` or `flowpkg`).
enum ProgramRun {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let stockLua = URL(fileURLWithPath: "/usr/bin/env")

    /// Runs `executable` (for `stockLua`, `lua5.4` found on PATH) with stdin closed; a launch
    /// failure is a result with status -1 and the error as stderr, so it shows as a difference.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String]) -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = executable == stockLua ? ["lua5.4"] + arguments : arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("flowpkg-proof-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: files) }
        do {
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            let outURL = files.appendingPathComponent("stdout"), errURL = files.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
            let input = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            try process.run()
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            try out.close()
            try err.close()
            return Result(status: process.terminationStatus,
                          stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                          stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
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
