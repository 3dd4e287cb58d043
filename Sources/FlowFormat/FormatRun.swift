import Dispatch
import FlowSupport
import LuaSyntax

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flowpkg fmt` over files: each read, formatted with the configuration found for it,
/// checked (same bytecode, same comments) and written only when it changes, atomically; or,
/// with `check`, compared and shown as a diff, nothing written. Files run on every core.
package struct FormatRun: Sendable {
    /// Compare only: report a diff for each file that would change, write nothing.
    package var check = false
    /// Check the meaning in `check` mode too (writes are always checked).
    package var verify = false
    /// Byte offsets: only the top-level statements that meet them are formatted.
    package var range: Range<Int>?
    /// The name a `check` diff gives a file (default: the path as named), built on the worker
    /// that formatted it.
    package var diffName: (@Sendable (String) -> String)?
    /// Called with each result in the order of `files` as soon as it and those before it are
    /// done, on a worker, one call at a time; `run` returns what it returns in the result's
    /// place (`FmtOutput` writes a diff and keeps the result without it, so that diffs already
    /// written do not stay in memory to the end).
    package var inOrder: (@Sendable (FormatResult) -> FormatResult)?

    package init() {}

    /// The results in the order of `files` (absolute paths or paths from the working folder).
    package func run(files: [String]) -> [FormatResult] {
        let results = Locked((done: [FormatResult?](repeating: nil, count: files.count), passed: 0))
        // Read once: `getcwd` walks the path up in the kernel at every call.
        let workingDirectory = FileManager.default.currentDirectoryPath
        let workers = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), max(files.count, 1))
        let next = Locked(0)
        // One lookup for all workers: each folder's configuration files are looked for once.
        let lookup = ConfigurationLookup()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let checked = CheckedFormat()
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < files.count else { return }
                let result = format(file: files[index], from: workingDirectory, checked: checked, lookup: lookup)
                results.withLock { state in
                    state.done[index] = result
                    guard let inOrder else { return }
                    while state.passed < state.done.count, let next = state.done[state.passed] {
                        state.done[state.passed] = inOrder(next)
                        state.passed += 1
                    }
                }
            }
        }
        return results.withLock { $0.done.compactMap { $0 } }
    }

    func format(file: String, from workingDirectory: String, checked: CheckedFormat, lookup: ConfigurationLookup)
        -> FormatResult
    {
        let absolute = file.hasPrefix("/") ? file : workingDirectory + "/" + file
        let source: [UInt8]
        do {
            let reader = try ReadableFile(path: file)
            source = try reader.readToEnd()
        } catch {
            return FormatResult(
                path: file, outcome: .failed(FormatProblem(kind: .unusable, message: "\(error)", file: file)))
        }
        let options: FormatOptions
        do {
            options = try lookup.options(for: absolute)
        } catch {
            let problem = FormatProblem(
                kind: .configuration, message: error.message, file: error.path, line: error.line, column: error.column)
            return FormatResult(path: file, outcome: .failed(problem))
        }
        let formatted: [UInt8]
        do {
            formatted = try formatText(source, options: options, checked: checked, chunkName: file)
        } catch {
            return FormatResult(path: file, outcome: .failed(error))
        }
        if formatted == source { return FormatResult(path: file, outcome: .unchanged) }
        if check {
            let name = diffName?(file) ?? file
            let diff = UnifiedDiff.diff(source, formatted, oldName: name, newName: name)
            return FormatResult(path: file, outcome: .wouldChange(diff: diff))
        }
        do {
            try AtomicOutput.replace(file, with: formatted)
        } catch {
            let problem = FormatProblem(
                kind: .unusable, message: "cannot write it: \(error.reason); it was left as it was", file: file)
            return FormatResult(path: file, outcome: .failed(problem))
        }
        return FormatResult(path: file, outcome: .formatted)
    }

    /// `source` formatted for `options`; the meaning checked unless comparing only.
    package func formatText(_ source: [UInt8], options: FormatOptions, checked: CheckedFormat, chunkName: String)
        throws(FormatProblem) -> [UInt8]
    {
        do {
            if check && !verify {
                return try LuaFormat.format(source, options: options, range: range)
            }
            return try checked.format(source, options: options, range: range, chunkName: chunkName)
        } catch let error as LuaSyntaxError {
            throw FormatProblem(
                kind: .syntax, message: error.message, file: chunkName, line: error.line, column: error.column)
        } catch let error as FormatFailure {
            switch error {
            case .syntax(let syntax):
                throw FormatProblem(
                    kind: .syntax, message: syntax.message, file: chunkName, line: syntax.line, column: syntax.column)
            case .notCompiled(let message):
                throw FormatProblem(kind: .syntax, message: message, file: chunkName)
            case .meaningChanged(let message):
                throw FormatProblem(kind: .meaningChanged, message: message, file: chunkName)
            }
        } catch {
            throw FormatProblem(kind: .meaningChanged, message: "\(error)", file: chunkName)
        }
    }
}

extension FormatProblem: Error {}
