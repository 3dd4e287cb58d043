import ArgumentParser
import FlowProject
import FlowSupport
import FlowTesting
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Flowpkg {
    /// `flowpkg test`: the project's busted specs, each file in a Lua context of its own, in parallel.
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Run the project's busted specs, each file in a fresh Lua context, on every core.",
            discussion: """
                Finds spec files as busted does: PATHS, else flowpkg.json's "tests" folders, else \
                .busted's ROOT, else spec/; in a folder, the .lua files whose name holds _spec (or \
                .busted's pattern). Each file runs in a Lua context of its own with busted's API \
                (describe, it, pending, hooks, insulate/expose, finally, randomize, #tags, \
                require 'busted') and luassert's assert, spy, stub, mock and match. require finds \
                what flowpkg run finds (the project's modules, its locked dependencies, resources \
                through getResource), its dev dependencies, lpath (default ./src/?.lua;...) before \
                them and the project folder (spec.helper) after. luassert and say are dev \
                dependencies: flowpkg add --dev luassert. The specs run in the project folder. \
                With --live, they run instead inside the program that follows flowpkg serve, each \
                file in a fresh context made as the program's own (with its host's API), their \
                files and dev dependencies sent along; results come back here and to the session \
                page. Exit status: 0 when every test passed, 1 on any failure or error, 64 on a usage error.

                EXAMPLES:
                  flowpkg add --dev luassert
                  flowpkg test
                  flowpkg test spec/parser_spec.lua --filter "parses numbers"
                  flowpkg test --exclude-tags slow --format junit > report.xml
                  flowpkg test --shard 2/4
                  FLOWPKG_LIVE_TOKEN=TOKEN flowpkg test --live http://127.0.0.1:7315
                """)

        @Argument(
            help: "A project folder (default: found from here upward), then spec files or folders.",
            completion: .file(extensions: ["lua"]))
        var paths: [String] = []

        @Option(
            help: "Output: text, json (busted's fields), junit, tap or github (default: .busted's output, else text).")
        var format: TestFormat?

        @Option(help: "Run only tests whose full name matches this Lua pattern; repeat for several.")
        var filter: [String] = []

        @Option(name: .customLong("filter-out"), help: "Leave out tests whose full name matches this Lua pattern.")
        var filterOut: [String] = []

        @Option(help: "Run only tests tagged #TAG (comma-separated or repeated).")
        var tags: [String] = []

        @Option(name: .customLong("exclude-tags"), help: "Leave out tests and blocks tagged #TAG.")
        var excludeTags: [String] = []

        @Option(help: "Take spec files whose name holds this Lua pattern (default: _spec).")
        var pattern: [String] = []

        @Flag(help: "Run files, and the tests of each block, in a random order (--seed to repeat one).")
        var shuffle = false

        @Option(help: "The seed for --shuffle and randomize().")
        var seed: Int64?

        @Flag(help: "List the tests (file:line: name) without running them.")
        var list = false

        @Flag(name: .customLong("fail-fast"), help: "Stop at the first failure or error.")
        var failFast = false

        @Option(help: "Seconds one spec file may run before it is stopped and reported as an error.")
        var timeout: Double = 60

        @Option(help: "Run only part K of N of the spec files (K/N, e.g. 2/8), the same split on every machine.")
        var shard: String?

        @Option(help: "Files that run at once (default: one per core).")
        var jobs: Int?

        @Flag(
            help:
                "Count the lines of the project's own modules the specs run (.luacov's include/exclude); write coverage/lcov.info, luacov.report.out, cobertura.xml and index.html."
        )
        var coverage = false

        @Option(name: .customLong("coverage-dir"), help: "Where --coverage writes its reports (default: coverage).")
        var coverageDir: String?

        @Option(
            name: .customLong("coverage-min"), help: "With --coverage, fail (exit 1) below this percentage of lines.")
        var coverageMin: Double?

        @Flag(
            help:
                "After a first run, rerun at each save only the spec files whose requires reach the saved file (Ctrl-C ends)."
        )
        var watch = false

        @Option(name: .customLong("run"), help: "The .busted task to read (busted's --run).")
        var task: String = "default"

        @Option(
            name: .customLong("live"),
            help: ArgumentHelp(
                "Run the specs inside the program following the flowpkg serve at this URL (flowpkg run --live, or a host with the development monitor), where they see the host's API; the token is read from FLOWPKG_LIVE_TOKEN, never from the command line.",
                valueName: "url"))
        var live: String?

        @Option(
            help:
                "With --live, when several programs follow the live source: the one to run in (identifier or process id)."
        )
        var program: String?

        init() {}

        func validate() throws {
            if let shard, case .failure(let error) = TestOptions.Shard.parse(shard) {
                throw ValidationError(error.description)
            }
            if timeout <= 0 { throw ValidationError("--timeout must be a number of seconds above 0") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
            if watch && (list || coverage || coverageDir != nil || coverageMin != nil) {
                throw ValidationError("--watch runs tests again at each save; it does not take --list or --coverage")
            }
            if let coverageMin, !(0...100).contains(coverageMin) {
                throw ValidationError("--coverage-min is a percentage, from 0 to 100")
            }
            try validateLive()
        }

        private func validateLive() throws {
            guard let live else {
                if program != nil { throw ValidationError("--program goes with --live URL") }
                return
            }
            if watch || coverage || coverageDir != nil || coverageMin != nil {
                throw ValidationError(
                    "--live runs the specs once in the program; it does not take --watch or --coverage")
            }
            guard let url = URL(string: live), url.scheme?.lowercased() == "http", url.host != nil else {
                throw ValidationError(
                    "--live takes an http:// URL (flowpkg serve speaks plain HTTP), such as http://127.0.0.1:7315, not '\(live)'"
                )
            }
            if Self.liveToken == nil {
                throw ValidationError(
                    "--live needs the token flowpkg serve printed, in the environment as \(LiveOptions.tokenVariable) "
                        + "(never on the command line, which every local user can read)")
            }
        }

        /// The live source's token, from the environment only.
        private static var liveToken: String? {
            ProcessInfo.processInfo.environment[LiveOptions.tokenVariable].flatMap { $0.isEmpty ? nil : $0 }
        }

        func run() throws {
            let (location, specPaths) = TestCommandLine.split(paths)
            let target: TestTarget
            do {
                target = try TestTarget.open(location)
            } catch {
                TestCommandLine.reportOpenFailure(error)
                throw ExitCode.failure
            }
            let root = target.project.root.standardizedFileURL.path
            let plan: SpecPlan
            let request = request(specPaths, root: root)
            do {
                plan = try SpecPlan.make(
                    root: root, declaredFolders: target.project.projectFile.tests, request: request)
            } catch {
                StandardStream.error.write("error: \(error)\n")
                throw ExitCode.failure
            }
            if let live, let url = URL(string: live), let token = Self.liveToken {
                LiveOptions.forgetTokenVariable()
                throw ExitCode(
                    TestCommandLine.live(
                        plan, target: target, root: root, format: format,
                        server: TestCommandLine.LiveServerAddress(url: url, token: token, program: program)))
            }
            if watch {
                let declared = target.project.projectFile.tests
                let replan = { try? SpecPlan.make(root: root, declaredFolders: declared, request: request).files }
                throw ExitCode(TestCommandLine.watch(plan, target: target, root: root, format: format, replan: replan))
            }
            let here = Terminal.workingDirectory
            let coverageFolder =
                (coverage || coverageDir != nil || coverageMin != nil)
                ? URL(fileURLWithPath: coverageDir ?? root + "/coverage", relativeTo: URL(fileURLWithPath: here + "/"))
                    .standardizedFileURL.path : nil
            let status = TestCommandLine.run(
                plan, target: target, root: root, format: format,
                coverage: coverageFolder.map { TestCommandLine.Coverage(folder: $0, minimum: coverageMin) })
            if status != 0 { throw ExitCode(status) }
        }

        private func request(_ specPaths: [String], root: String) -> SpecPlan.Request {
            var request = SpecPlan.Request()
            let here = Terminal.workingDirectory
            request.paths = specPaths.map { path in
                let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: here + "/"))
                    .standardizedFileURL.path
                return PathText.relative(absolute, from: root)
            }
            request.patterns = pattern
            request.task = task
            var options = TestOptions()
            options.filter = filter
            options.filterOut = filterOut
            options.tags = tags.flatMap { $0.split(separator: ",").map(String.init) }
            options.excludeTags = excludeTags.flatMap { $0.split(separator: ",").map(String.init) }
            options.shuffle = shuffle
            request.shuffleGiven = shuffle
            options.seed = seed
            options.list = list
            options.failFast = failFast
            options.timeout = timeout
            options.jobs = jobs
            options.interpreter = Flowpkg.executablePath
            if let shard, case .success(let parsed) = TestOptions.Shard.parse(shard) { options.shard = parsed }
            request.options = options
            return request
        }
    }
}
