import Dispatch
import FlowLoader
import FlowLua
import FlowRuntime
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One spec file run in a Lua context of its own (busted insulates each file; here each has a
/// fresh state), by the embedded runner.
enum SpecFileRun {
    static func run(
        _ file: String, suite: TestSuite, options: TestOptions, seed: Int64,
        contextReady: (@Sendable (LuaContext, String) -> Void)? = nil
    ) -> SpecFileResult {
        let context: LuaContext
        do {
            if let makeContext = suite.makeContext {
                context = try makeContext()
            } else {
                let loader = try Loader(identifier: suite.identifier, sources: suite.sources)
                context = try LuaContext(
                    name: "test", packageIdentifier: suite.identifier, loader: loader,
                    options: LuaContext.Options(
                        cModules: options.coverage ? [LuaCoverage.moduleName: LuaCoverage.opener] : [:],
                        externalModules: suite.externalModules))
            }
        } catch {
            return failed(file, "cannot start a Lua context: \(error)")
        }
        defer { context.terminate() }
        contextReady?(context, file)
        do {
            try context.setGlobal("_FLOWPKG_TEST", settings(file, suite: suite, options: options, seed: seed))
            let results = try context.execute(EmbeddedRunnerLua.runner, chunkName: "flowpkg:test")
            var result = decode(results.first, file: file)
            if case .table(let fields)? = results.first, fields["loadError"] != nil {
                locateSyntaxError(in: &result, path: suite.root + "/" + file, suite: suite)
            }
            return result
        } catch {
            return failed(file, "\(error)")
        }
    }

    /// The runner's options, as a Lua table.
    private static func settings(_ file: String, suite: TestSuite, options: TestOptions, seed: Int64) -> LuaValue {
        func list(_ values: [String]) -> LuaValue { .array(values.map { .string($0) }) }
        var table: [String: LuaValue] = [
            "file": .string(file), "root": .string(suite.root), "seed": .integer(seed),
            "timeout": .number(options.timeout), "shuffle": .bool(options.shuffle), "list": .bool(options.list),
            "failFast": .bool(options.failFast), "coverage": .bool(options.coverage), "filter": list(options.filter),
            "debugged": .bool(options.debugged),
            "filterOut": list(options.filterOut),
            "tags": list(options.tags), "excludeTags": list(options.excludeTags), "lpath": .string(options.lpath),
            "localPath": "./?.lua;./?/init.lua",
            "clock": .function(LuaFunction { _ in [.number(Self.now())] }),
        ]
        if suite.texts != nil {
            table["read"] = .function(
                LuaFunction { arguments in
                    guard let path = arguments.first?.stringValue, let text = suite.text(at: path) else {
                        return [.nil, .string("not among the files the test run was sent")]
                    }
                    return [.string(text)]
                })
        }
        if !suite.modules.isEmpty {
            table["module"] = .function(
                LuaFunction { arguments in
                    guard let name = arguments.first?.stringValue, let module = suite.modules[name] else { return [] }
                    return [.string(module.text), .string(module.chunk)]
                })
        }
        if let helper = options.helper { table["helper"] = .string(helper) }
        if let interpreter = options.interpreter { table["interpreter"] = .string(interpreter) }
        if options.coverage { table["coverageFiles"] = list(options.coverageFiles) }
        return .table(table)
    }

    /// Monotonic seconds: the whole process's CPU clock (`os.clock`) runs faster than the wall
    /// while files run in parallel.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    private static func decode(_ value: LuaValue?, file: String) -> SpecFileResult {
        guard case .table(let fields)? = value else { return failed(file, "the runner returned nothing") }
        var records: [SpecRecord] = []
        if case .array(let list)? = fields["records"] {
            records = list.compactMap { SpecRecord($0, file: file) }
        }
        var result = SpecFileResult(
            file: file, records: records, stopped: fields["stopped"]?.stringValue,
            missingModule: fields["missing"]?.stringValue, missingMessage: fields["message"]?.stringValue)
        if case .array(let names)? = fields["reached"] { result.reached = names.compactMap(\.stringValue) }
        if case .table(let chunks)? = fields["coverage"] {
            for (chunk, lines) in chunks where chunk.hasPrefix("@") {
                result.lineHits[String(chunk.dropFirst()), default: [:]] = LineHits.decode(lines)
            }
        }
        return result
    }

    /// A spec that does not compile: its error as `file:line:col: message`, the column found
    /// from the token Lua's message quotes, as validate reports it.
    private static func locateSyntaxError(in result: inout SpecFileResult, path: String, suite: TestSuite) {
        guard let index = result.records.firstIndex(where: { $0.descriptor == "file" }),
            let data = suite.texts != nil
                ? suite.text(at: result.file).map { Data($0.utf8) } : FileManager.default.contents(atPath: path)
        else { return }
        let bytes = [UInt8](data)
        bytes.withUnsafeBytes { buffer in
            do {
                try LuaChunkChecker().check(buffer, chunkName: result.file)
            } catch let error as LuaError {
                let location = SyntaxErrorLocation(error: error, source: buffer)
                guard let line = location.line else { return }
                result.records[index].line = line
                result.records[index].failureFile = result.file
                result.records[index].failureLine = line
                result.records[index].message =
                    "\(result.file):\(line):\(location.column ?? 1): \(location.message)"
            } catch {}
        }
    }

    private static func failed(_ file: String, _ message: String) -> SpecFileResult {
        SpecFileResult(
            file: file,
            records: [SpecRecord(status: .error, name: file, descriptor: "file", file: file, message: message)])
    }
}
