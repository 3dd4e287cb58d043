import FlowDiagnostics
import FlowSupport

/// Why a dependency could not be resolved, fetched or trusted; each becomes one diagnostic
/// whose message names the file, the rock or the command, and the fix.
public enum DependencyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A program (luarocks) failed; `output` is what it said.
    case commandFailed(command: String, output: String)
    /// A program (luarocks) was stopped before it finished: its deadline passed, or flowpkg
    /// received a signal; its whole process group was ended with it.
    case commandStopped(command: String, reason: String)
    case luarocksMissing
    case unknownRock(name: String, servers: [String])
    case unsatisfiable(name: String, constraint: String, available: [String])
    case serverUnreachable(server: String, detail: String)
    /// A rock builds C code or installs a `lib/` file.
    case cCode(rock: String, version: String, modules: [String])
    /// A rock builds with a command (any build type but builtin and none) or installs what is
    /// not a Lua module; `reason` names the rockspec's field.
    case buildRefused(rock: String, version: String, reason: String)
    /// A path dependency whose folder is missing or holds no usable project; `declared`, where
    /// flowpkg.json lists it (nil for a folder given on the command line, `add --path`).
    case pathUnusable(name: String, path: String, reason: String, declared: DeclarationPlace? = nil)
    case packageUnusable(name: String, path: String, reason: String)
    /// A locked file's bytes differ from the lock.
    case hashMismatch(file: String, expected: String, actual: String)
    /// A locked file is in neither the cache nor vendor/, and fetching is not allowed.
    case unavailableOffline(dependency: String, file: String)
    case lockOutOfDate(reason: String)
    case pathChanged(dependency: String, file: String)
    case moduleProvidedTwice(module: String, first: String, second: String)
    /// Path dependencies that lead back to where they started: `app -> ui-kit -> charts -> ui-kit`.
    case dependencyCycle(chain: [String])
    /// One dependency name from two places (`first` and `second` say which, and who asked).
    case dependencyNameClash(name: String, first: String, second: String)
    /// `vendor/` or a path below it is a symbolic link or not a folder; `path` is shown as given.
    case vendorLinked(path: String, reason: String)
    /// A path dependency's folder lies outside the project's repository (or in a system
    /// folder), as a linked resource may not without the opt-in; `message` and `hint` say which.
    case pathOutsideRepository(name: String, path: String, message: String, hint: String)
    /// A dependency's module is larger than any module may be (FP303), refused before it is read.
    case moduleTooLarge(dependency: String, file: String, size: Int, limit: Int)
    case io(path: String, reason: String)

    /// A file FlowSupport's `AtomicOutput` could not write.
    package static func io(_ failure: AtomicOutput.Failure) -> DependencyError {
        .io(path: failure.path, reason: failure.reason)
    }

    public var description: String { diagnostic.message }

    /// The error with where flowpkg.json declares the dependency it is about, when that is a
    /// path dependency's (a diagnostic then points at the entry, not at the folder).
    public func declared(at place: DeclarationPlace) -> DependencyError {
        guard case let .pathUnusable(name, path, reason, nil) = self else { return self }
        return .pathUnusable(name: name, path: path, reason: reason, declared: place)
    }

    /// The error as a diagnostic, `file` naming flowpkg.json (or the lock) where that helps.
    public var diagnostic: Diagnostic {
        // The three groups cover every case between them; the last resort is never reached.
        luarocksDiagnostic ?? sourceDiagnostic ?? lockDiagnostic
            ?? Diagnostic(severity: .error, code: .luarocksFailed, message: "a dependency could not be resolved")
    }

    /// LuaRocks and the rocks it would take.
    private var luarocksDiagnostic: Diagnostic? {
        switch self {
        case let .commandFailed(command, output):
            return Diagnostic(
                severity: .error, code: .luarocksFailed,
                message: "'\(command)' failed:\n" + Self.lastLines(output),
                hint: "fix what it reports, then run the flowpkg command again")
        case let .commandStopped(command, reason):
            return Diagnostic(
                severity: .error, code: .luarocksFailed, message: "'\(command)' was stopped: \(reason)",
                hint: "check the rocks servers in flowpkg.json (\"rocksServers\"), then run the flowpkg command again")
        case .luarocksMissing:
            return Diagnostic(
                severity: .error, code: .luarocksMissing,
                message: "rock dependencies need luarocks, which is not on the PATH",
                hint: "install it: apt-get install luarocks (Debian, Ubuntu) or brew install luarocks (macOS); "
                    + "'export --offline' needs no luarocks once flowpkg.lock and the cache or vendor/ hold the files")
        case let .unknownRock(name, servers):
            return Diagnostic(
                severity: .error, code: .unknownRock,
                message: "no rock named '\(name)' on \(servers.joined(separator: ", "))",
                hint: "searched \(servers.joined(separator: " and ")): check the name (luarocks search \(name) "
                    + "--only-server \(servers.first ?? "URL")), or add the server that has it: "
                    + "flowpkg add \(name) --rocks-server URL")
        case let .unsatisfiable(name, constraint, available):
            return Diagnostic(
                severity: .error, code: .unsatisfiableConstraint,
                message: "no version of '\(name)' matches '\(constraint)'"
                    + (available.isEmpty ? "" : "; the servers have " + available.joined(separator: ", ")),
                hint: "loosen the constraint in flowpkg.json's \"dependencies\"")
        case let .serverUnreachable(server, detail):
            return Diagnostic(
                severity: .error, code: .rocksServerUnreachable,
                message: "the rocks server '\(server)' cannot be read: \(detail)",
                hint: "check the URL or folder (a folder needs a manifest: luarocks-admin make-manifest DIR), "
                    + "or give another with --rocks-server")
        case let .cCode(rock, version, modules):
            let named = modules.isEmpty ? "C code" : "the C module " + modules.map { "'\($0)'" }.joined(separator: ", ")
            return Diagnostic(
                severity: .error, code: .rockHasCCode,
                message: "the rock \(rock) \(version) has \(named); only pure Lua travels in a package, "
                    + "so it was refused before anything was compiled",
                hint: modules.isEmpty
                    ? "depend on a pure-Lua rock instead"
                    : "if the host provides it, list it in flowpkg.json: \"externalModules\": ["
                        + modules.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        case let .buildRefused(rock, version, reason):
            return Diagnostic(
                severity: .error, code: .rockBuildRefused,
                message: "the rock \(rock) \(version) was refused before LuaRocks built anything: \(reason); "
                    + "only rocks of pure Lua modules (build type builtin or none) are taken",
                hint: "depend on another rock or version, or vendor the Lua modules you need into Sources")
        case let .io(path, reason):
            return Diagnostic(
                severity: .error, code: .luarocksFailed, message: "cannot use \(path): \(reason)", file: path)
        default: return nil
        }
    }

    /// Path and package dependencies, and where modules come from.
    private var sourceDiagnostic: Diagnostic? {
        switch self {
        case let .pathUnusable(name, path, reason, declared?):
            return Diagnostic(
                severity: .error, code: .pathDependencyUnusable,
                message: "the path dependency '\(name)' at '\(path)' cannot be used: \(reason)", file: declared.file,
                line: declared.line, column: declared.column,
                hint: "correct its \"path\" here to the folder of a flowpkg project (one with a flowpkg.json), "
                    + "or make one in that folder: flowpkg new \(path) --template lua-library")
        case let .pathUnusable(name, path, reason, nil):
            return Diagnostic(
                severity: .error, code: .pathDependencyUnusable,
                message: "the path dependency '\(name)' at '\(path)' cannot be used: \(reason)", file: path,
                hint:
                    "give the folder of a flowpkg project (one with a flowpkg.json), e.g. from 'flowpkg new DIR --template lua-library'"
            )
        case let .packageUnusable(name, path, reason):
            return Diagnostic(
                severity: .error, code: .packageDependencyUnusable,
                message: "the package dependency '\(name)' cannot be used: \(reason)", file: path,
                hint: "export the library again ('flowpkg export'), or point at another .luapkg")
        case let .moduleProvidedTwice(module, first, second):
            return Diagnostic(
                severity: .error, code: .moduleProvidedTwice,
                message: "the module '\(module)' is provided twice: by \(first) and by \(second)",
                hint: "remove one of them, or rename the project's own module")
        case let .dependencyCycle(chain):
            return Diagnostic(
                severity: .error, code: .dependencyCycle,
                message: "the path dependencies form a cycle: " + chain.joined(separator: " -> "),
                hint: "a project cannot depend on itself, even through another; "
                    + "move what both need into a library of its own that neither depends back on")
        case let .dependencyNameClash(name, first, second):
            return Diagnostic(
                severity: .error, code: .dependencyNameClash,
                message: "the dependency name '\(name)' comes from two places: \(first), and \(second)",
                hint: "make both point at the same folder, package or rock, or rename one of them")
        case let .vendorLinked(path, reason):
            return Diagnostic(
                severity: .error, code: .vendorLinkRefused,
                message: "flowpkg vendor writes nothing through '\(path)': \(reason)", file: path,
                hint:
                    "remove it (git rm \(path)) and run 'flowpkg vendor' again; vendor/ holds plain folders and files, "
                    + "as a linked resource outside the repository is refused (FP111)")
        case let .pathOutsideRepository(name, path, message, hint):
            return Diagnostic(
                severity: .error, code: .linkOutsideRepository,
                message: "the path dependency '\(name)': \(message)", file: path, hint: hint)
        case let .moduleTooLarge(dependency, file, size, limit):
            func megabytes(_ bytes: Int) -> String {
                let tenths = (bytes * 10 + (1 << 19)) >> 20
                return "\(tenths / 10).\(tenths % 10) MB"
            }
            return Diagnostic(
                severity: .error, code: .moduleTooLarge,
                message: "the module of the dependency '\(dependency)' is \(megabytes(size)); "
                    + "flowpkg accepts modules up to \(megabytes(limit))",
                file: file, hint: "split it into smaller modules, or make large data a resource")
        default: return nil
        }
    }

    /// flowpkg.lock and the files it pins.
    private var lockDiagnostic: Diagnostic? {
        switch self {
        case let .hashMismatch(file, expected, actual):
            return Diagnostic(
                severity: .error, code: .lockedFileMismatch,
                message: "\(file) is not the file flowpkg.lock pins: expected SHA-256 \(expected), got \(actual)",
                file: file,
                hint:
                    "someone changed it after it was locked; delete it (flowpkg fetches it again) or, if the change is wanted, run 'flowpkg update'"
            )
        case let .unavailableOffline(dependency, file):
            return Diagnostic(
                severity: .error, code: .lockedFileUnavailable,
                message:
                    "\(file) of '\(dependency)' is neither in flowpkg's cache nor in vendor/, and --offline fetches nothing",
                hint: "run once without --offline to fill the cache, or commit the files with 'flowpkg vendor'")
        case let .lockOutOfDate(reason):
            return Diagnostic(
                severity: .error, code: .lockOutOfDate, message: reason,
                hint: "run 'flowpkg lock' and commit flowpkg.lock")
        case let .pathChanged(dependency, file):
            return Diagnostic(
                severity: .error, code: .pathDependencyChanged,
                message: "\(file) of the path dependency '\(dependency)' changed since flowpkg.lock was written",
                file: file, hint: "run 'flowpkg lock' to take the change, then export again")
        default: return nil
        }
    }

    /// The end of a long output: what a failing tool says last is what matters.
    static func lastLines(_ text: String, count: Int = 12) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        return lines.suffix(count).map { "  " + $0 }.joined(separator: "\n")
    }
}
