import FlowAnalysis
import FlowDiagnostics
import FlowLua
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

/// Checks one module's file: readable (FP208), text (FP302), within limits (FP303), compiles
/// with Lua 5.4 (FP301); then hands the same bytes to static analysis.
///
/// flowpkg's parser reads the module first. When it is certain Lua 5.4 compiles it
/// (`LuaParser.verdict`), Lua's compiler is not run; when it rejects the module, or a check
/// only Lua's compiler makes exactly might fail, Lua compiles it and its error is reported.
///
/// Owns one `LuaChunkChecker` and one `ReusableModuleAnalyzer`, so each worker thread has its
/// own checker.
final class ModuleContentChecker {
    /// What checking one module found. Its fields live in one box shared until one is changed,
    /// so copying an outcome costs one reference: an editor's session copies every module's
    /// at each edit while its findings are computed from a snapshot (issue 47).
    struct Outcome {
        private final class Storage: @unchecked Sendable {
            var diagnostics: [Diagnostic] = []
            var facts: ModuleFacts?
            var unanalysedSource: [UInt8]?
            var checkedBytes: [UInt8]?

            func copy() -> Storage {
                let copy = Storage()
                copy.diagnostics = diagnostics
                copy.facts = facts
                copy.unanalysedSource = unanalysedSource
                copy.checkedBytes = checkedBytes
                return copy
            }
        }

        private var storage = Storage()

        private mutating func unique() -> Storage {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }

        var diagnostics: [Diagnostic] {
            get { storage.diagnostics }
            set { unique().diagnostics = newValue }
        }
        /// What static analysis learnt, when the module compiled and analysis could read it.
        var facts: ModuleFacts? {
            get { storage.facts }
            set { unique().facts = newValue }
        }
        /// The text of a module that did not compile or could not be analysed: what it might
        /// name (resources, globals) still counts, so its error is not echoed by false warnings.
        var unanalysedSource: [UInt8]? {
            get { storage.unanalysedSource }
            set { unique().unanalysedSource = newValue }
        }
        /// The bytes read from the file and checked (export writes them).
        var checkedBytes: [UInt8]? {
            get { storage.checkedBytes }
            set { unique().checkedBytes = newValue }
        }
    }

    private let lua = LuaChunkChecker()
    private let analyzer = ReusableModuleAnalyzer()
    private let maximumSize: Int

    init(maximumSize: Int, checksTypes: Bool = true) {
        self.maximumSize = maximumSize
        analyzer.collectsTypes = checksTypes
    }

    /// Checks the module file at `path`; `chunkName` (its path under the sources folder) is what
    /// Lua's messages name.
    func check(path: String, chunkName: String, collectsStringLiterals: Bool = true) -> Outcome {
        switch SourceFile.contents(of: path, maximumSize: maximumSize) {
        case .failure(.tooLarge(let size)):
            return tooLarge(size, path: path)
        case .failure(.unreadable(let reason)):
            var outcome = Outcome()
            outcome.diagnostics.append(
                Diagnostic(
                    severity: .error, code: .unreadableFile, message: "cannot read the module: \(reason)", file: path))
            return outcome
        case .success(let bytes):
            var outcome = check(
                bytes: bytes, path: path, chunkName: chunkName, collectsStringLiterals: collectsStringLiterals)
            outcome.checkedBytes = bytes
            return outcome
        }
    }

    private func tooLarge(_ size: Int, path: String) -> Outcome {
        var outcome = Outcome()
        outcome.diagnostics.append(
            Diagnostic(
                severity: .error, code: .moduleTooLarge,
                message:
                    "the module is \(SourceFile.megabytes(size)); flowpkg accepts modules up to \(SourceFile.megabytes(maximumSize))",
                file: path, hint: "split it into smaller modules, or make large data a resource"))
        return outcome
    }

    /// Checks a module's content already in memory (an editor's unsaved buffer), reported as
    /// the file at `path`: the same checks as a file's, from the size limit on.
    func check(bytes: [UInt8], path: String, chunkName: String, collectsStringLiterals: Bool = true) -> Outcome {
        if bytes.count > maximumSize { return tooLarge(bytes.count, path: path) }
        var outcome = Outcome()
        func report(
            _ code: DiagnosticCode, _ message: String, line: Int? = nil, column: Int? = nil, hint: String? = nil
        ) {
            outcome.diagnostics.append(
                Diagnostic(
                    severity: .error, code: code, message: message, file: path,
                    line: line, column: column, hint: hint))
        }
        if let problem = TextCheck.problem(in: bytes) {
            guard problem.isEncoding else {
                report(.notText, problem.message, line: problem.line, column: problem.column, hint: problem.hint)
                return outcome
            }
            // Not UTF-8, but Lua source all the same: a warning, and every other check goes on.
            outcome.diagnostics.append(
                Diagnostic(
                    severity: .warning, code: .notUTF8, message: problem.message, file: path,
                    line: problem.line, column: problem.column, hint: problem.hint))
        }
        bytes.withUnsafeBytes { buffer in
            // Refused before Lua compiles it: a long or/and/elseif chain takes it quadratic time.
            if let chain = ChainScanner.longChain(in: buffer) {
                report(.moduleTooLarge, chain.message, line: chain.line, column: chain.column, hint: chain.hint)
                outcome.unanalysedSource = bytes
                return
            }
            // flowpkg's parser first: when it is certain Lua 5.4 compiles the chunk (the usual
            // case), Lua is not asked; otherwise Lua's compiler decides, with its own words.
            let screened = analyzer.screen(buffer, collectsStringLiterals: collectsStringLiterals)
            if screened.compilesCertainly {
                outcome.facts = screened.facts
                if outcome.facts == nil { outcome.unanalysedSource = bytes }
                return
            }
            do {
                // lua5.4 loads files skipping a `#!` first line (and a byte order mark), as
                // luaL_loadfile does; a buffer load does not, so start at the line break.
                let start = Self.chunkStart(in: buffer)
                try lua.check(UnsafeRawBufferPointer(rebasing: buffer[start...]), chunkName: chunkName)
            } catch let error as LuaError {
                var syntax = SyntaxErrorLocation(error: error, source: buffer)
                let isLimit = error.kind == .memory || Self.limitMarkers.contains { syntax.message.contains($0) }
                if syntax.line == nil, syntax.message.contains("C stack overflow") {
                    // Lua gives no line for this one: point at the deepest nesting instead.
                    syntax.message = "the code is nested too deeply for Lua's compiler (C stack overflow)"
                    if let place = NestingScanner.deepestPlace(in: buffer) {
                        syntax.line = place.line
                        syntax.column = place.column
                    }
                }
                // The column of the token Lua's error is about, from where flowpkg's parser
                // stopped (on the same token as Lua's): only when it stopped on the same line.
                if !isLimit, !Self.isLexicalError(syntax.message), let line = syntax.line,
                    let stop = screened.stop, stop.line == line
                {
                    syntax.column = stop.column
                }
                report(
                    isLimit ? .moduleTooLarge : .luaSyntaxError, syntax.message, line: syntax.line,
                    column: syntax.column,
                    hint: isLimit
                        ? "Lua allows about 200 nested levels and 200 locals per function: split the code"
                        : SyntaxErrorHints.hint(for: syntax.message))
                outcome.unanalysedSource = bytes
                return
            } catch {
                report(.luaSyntaxError, "\(error)")
                outcome.unanalysedSource = bytes
                return
            }
            // Lua compiles what the parser was unsure of (or, a parser bug, rejected).
            outcome.facts = screened.facts
            if outcome.facts == nil { outcome.unanalysedSource = bytes }
        }
        return outcome
    }

    /// Where Lua's loader starts reading a file: after a UTF-8 byte order mark, and at the line
    /// break ending a first line that starts with `#` (kept, so line numbers stay the file's).
    static func chunkStart(in source: UnsafeRawBufferPointer) -> Int {
        var start = 0
        if source.count >= 3, source[0] == 0xEF, source[1] == 0xBB, source[2] == 0xBF { start = 3 }
        guard start < source.count, source[start] == UInt8(ascii: "#") else { return start }
        while start < source.count, source[start] != 0x0A, source[start] != 0x0D { start += 1 }
        return start
    }

    /// Whether Lua's message is about a malformed token (string, number, escape) rather than a
    /// misplaced one: Lua quotes such a token from its start, which the message's text finds,
    /// while a parser stops at its end.
    static func isLexicalError(_ message: String) -> Bool {
        message.hasPrefix("unfinished") || message.hasPrefix("malformed") || message.contains("escape")
            || message.hasPrefix("UTF-8") || message.hasPrefix("hexadecimal digit")
            || message.hasPrefix("invalid long string")
            || message.hasPrefix("missing '")
    }

    /// Words in Lua's messages that mean a limit of the compiler, not a mistake in the code.
    static let limitMarkers = ["too many", "overflow", "too long", "too big", "not enough memory", "too complex"]
}

/// Reads a source file whole, refusing what is not a regular file or too large, without
/// blocking on a FIFO that appeared after discovery.
enum SourceFile {
    enum Failure: Error {
        case tooLarge(Int)
        case unreadable(String)
    }

    static func contents(of path: String, maximumSize: Int) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.unreadable("it is not a regular file")) }
        let size = Int(info.st_size)
        guard size <= maximumSize else { return .failure(.tooLarge(size)) }
        // Read into uninitialised storage: zero-filling first would touch every byte twice.
        var failure: Failure?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var total = 0
            while total < size {
                let count = read(descriptor, buffer.baseAddress! + total, size - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = .unreadable(String(cString: strerror(errno)))
                    break
                }
                if count == 0 { break }  // shrank while reading: check what is there
                total += count
            }
            initialized = total
        }
        if let failure { return .failure(failure) }
        return .success(bytes)
    }

    static func megabytes(_ size: Int) -> String {
        let tenths = (size * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
