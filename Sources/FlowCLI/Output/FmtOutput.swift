import FlowDiagnostics
import FlowFormat
import FlowSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `flowpkg fmt` prints: nothing for a plain run unless something went wrong or
/// `--verbose`; with `--check`, a unified diff for each file that would change; problems as
/// `file:line:col: error: message [FPnnn]` on standard error; or all of it as JSON or GitHub
/// annotations.
struct FmtOutput {
    var format: OutputFormat
    var workingDirectory: String
    var verbose: Bool

    var renderer: DiagnosticRenderer { DiagnosticRenderer(format: format, workingDirectory: workingDirectory) }

    /// `run` over `files`. With `--check` as text, each diff is built with the name shown on
    /// the worker that formatted its file and written in the files' order as soon as those
    /// before it are done, 64 KB at a time; the results keep no diff (`show` writes none).
    func formatFiles(_ files: [String], _ run: FormatRun) -> [FormatResult] {
        guard format == .text, run.check else { return run.run(files: files) }
        var streamed = run
        let renderer = self.renderer
        let pending = Locked([UInt8]())
        streamed.diffName = { renderer.displayPath($0) }
        streamed.inOrder = { result in
            guard case .wouldChange(let diff) = result.outcome else { return result }
            pending.withLock { bytes in
                bytes += diff.utf8
                guard bytes.count >= 1 << 16 else { return }
                _ = writeAll(1, bytes)
                bytes.removeAll(keepingCapacity: true)
            }
            // Written: `show` needs only that the file would change.
            return FormatResult(path: result.path, outcome: .wouldChange(diff: ""))
        }
        let results = streamed.run(files: files)
        pending.withLock { _ = writeAll(1, $0) }
        return results
    }

    /// Prints the results (as text, the diffs were written by `formatFiles`); whether the run
    /// succeeded (no problem, and with `check` no change).
    func show(_ results: [FormatResult], check: Bool) -> Bool {
        let diagnostics = results.compactMap(diagnostic)
        var counts = (formatted: 0, unchanged: 0, failed: 0)
        for result in results {
            switch result.outcome {
            case .unchanged: counts.unchanged += 1
            case .formatted, .wouldChange: counts.formatted += 1
            case .failed: counts.failed += 1
            }
        }
        let summary =
            "\(counts.formatted) \(check ? "would be reformatted" : "formatted"), "
            + "\(counts.unchanged) unchanged, \(counts.failed) not formatted"
        switch format {
        case .text:
            StandardStream.error.write(renderer.texts(diagnostics.filter { $0.code != .notFormatted }))
            if verbose {
                for result in results {
                    StandardStream.error.write("\(status(result.outcome, check)) \(shown(result.path))\n")
                }
                StandardStream.error.write(summary + "\n")
            }
        case .json:
            let files = results.map { JSONFmtReport.File($0, shown: shown($0.path)) }
            let entries = diagnostics.map { JSONReport.DiagnosticEntry($0, renderer: renderer) }
            StandardStream.output.write(
                JSONReport.text(JSONFmtReport(files: files, diagnostics: entries, summary: summary)))
        case .github:
            StandardStream.output.write(diagnostics.map { renderer.github($0) + "\n" }.joined() + summary + "\n")
        }
        return counts.failed == 0 && !(check && counts.formatted > 0)
    }

    /// `--stdin-filepath`: standard input formatted to standard output (with `--check`, a
    /// diff instead, nothing when it is formatted); whether it succeeded.
    func formatStandardInput(_ run: FormatRun, configurationFor path: String) throws -> Bool {
        let source = try ReadableFile(path: "/dev/stdin").readToEnd()
        let absolute = FmtFiles.absolute(path, FileManager.default.currentDirectoryPath)
        do {
            let options = try ConfigurationLookup().options(for: absolute)
            var checkedRun = run
            checkedRun.verify = true
            let formatted = try checkedRun.formatText(
                source, options: options, checked: CheckedFormat(), chunkName: path)
            if run.check {
                guard formatted != source else { return true }
                StandardStream.output.write(UnifiedDiff.diff(source, formatted, oldName: path, newName: path))
                return false
            }
            StandardStream.output.write(String(decoding: formatted, as: UTF8.self))
            return true
        } catch let error as ConfigurationError {
            let problem = FormatProblem(
                kind: .configuration, message: error.message, file: error.path, line: error.line, column: error.column)
            return show([FormatResult(path: path, outcome: .failed(problem))], check: run.check)
        } catch let problem as FormatProblem {
            return show([FormatResult(path: path, outcome: .failed(problem))], check: run.check)
        }
    }

    func diagnostic(_ result: FormatResult) -> Diagnostic? {
        switch result.outcome {
        case .unchanged, .formatted: return nil
        case .wouldChange(let diff):
            let line = Self.firstChangedLine(diff)
            return Diagnostic(
                severity: .error, code: .notFormatted, message: "file is not formatted (flowpkg fmt rewrites it)",
                file: result.path, line: line, column: line == nil ? nil : 1)
        case .failed(let problem):
            let code: DiagnosticCode
            switch problem.kind {
            case .syntax: code = .luaSyntaxError
            case .configuration: code = .invalidFormatConfiguration
            case .unusable: code = .formatFileUnusable
            case .meaningChanged: code = .formatWouldChangeMeaning
            }
            var message = problem.message
            if problem.kind == .syntax { message += "; not formatted" }
            if problem.kind == .configuration { message += " (\(shown(result.path)) was not formatted)" }
            return Diagnostic(
                severity: .error, code: code, message: message, file: problem.file, line: problem.line,
                column: problem.column)
        }
    }

    static func firstChangedLine(_ diff: String) -> Int? {
        // The first hunk's header is the diff's third line (read as bytes: no grapheme breaking).
        let head = diff.utf8.split(separator: 10, maxSplits: 3, omittingEmptySubsequences: false).prefix(3)
        guard let header = head.first(where: { $0.starts(with: "@@ -".utf8) }) else { return nil }
        let digits = header.dropFirst(4).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return Int(String(decoding: digits, as: UTF8.self)).map { max($0, 1) }
    }

    func shown(_ path: String) -> String { renderer.displayPath(path) }

    private func status(_ outcome: FormatResult.Outcome, _ check: Bool) -> String {
        switch outcome {
        case .unchanged: return "unchanged"
        case .formatted: return "formatted"
        case .wouldChange: return "would change"
        case .failed: return "not formatted"
        }
    }
}

/// `flowpkg fmt --format json`.
struct JSONFmtReport: Encodable {
    struct File: Encodable {
        var file: String
        var status: String
        var diff: String?

        init(_ result: FormatResult, shown: String) {
            file = shown
            switch result.outcome {
            case .unchanged: status = "unchanged"
            case .formatted: status = "formatted"
            case .wouldChange(let text):
                status = "would change"
                diff = text
            case .failed: status = "not formatted"
            }
        }

        enum CodingKeys: CodingKey { case file, status, diff }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(status, forKey: .status)
            try container.encode(diff, forKey: .diff)
        }
    }

    var files: [File]
    var diagnostics: [JSONReport.DiagnosticEntry]
    var summary: String
}
