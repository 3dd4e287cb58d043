import FlowDiagnostics

/// Everything that can go wrong reading or writing a `.luapkg`. Each message names the
/// package (or input) file and, where there is one, the entry concerned.
public enum PackageError: Error, Sendable, Equatable, CustomStringConvertible {
    // Reading.
    /// The file cannot be opened or read at all (missing, a folder, no permission).
    case unreadable(path: String, reason: String)
    /// The file is not a zip archive (empty, random bytes, cut short).
    case notAPackage(path: String, reason: String)
    /// The archive holds more entries than `PackageLimits.maxEntries`.
    case tooManyEntries(path: String, count: Int, limit: Int)
    /// The first entry is not `manifest.json` (nil when the archive has no entries).
    case manifestNotFirst(path: String, firstEntry: String?)
    /// `manifest.json` is larger than `PackageLimits.maxManifestBytes`.
    case manifestTooLarge(path: String, size: Int64, limit: Int64)
    /// `manifest.json` does not parse or breaks the format's rules.
    case invalidManifest(path: String, problems: [PackageProblem])
    /// The archive's entries do not match the manifest, or an entry is unsafe.
    case invalidPackage(path: String, problems: [PackageProblem])
    /// An entry's bytes are not what the manifest says (size, SHA-256) or cannot be read.
    case corruptEntry(path: String, entry: String, reason: String)
    /// The package has no module of that name.
    case noSuchModule(path: String, name: ModuleName)
    /// The package has no resource with that key.
    case noSuchResource(path: String, key: ResourceKey)
    /// The package serves another identifier than the one asked for.
    case identifierMismatch(path: String, expected: PackageIdentifier, found: PackageIdentifier)

    // Writing.
    /// The package cannot be written as asked (a path the format refuses, a name listed
    /// twice, a missing start module, a limit passed); `entry` is the entry concerned.
    case invalidInput(path: String, entry: String?, reason: String)
    /// An input file cannot be read.
    case inputUnreadable(file: String, entry: String, reason: String)
    /// An input file changed while it was being exported.
    case inputChanged(file: String, entry: String)
    /// The output cannot be created in its folder.
    case outputUnwritable(path: String, reason: String)
    /// Writing the archive failed part way (disk full, I/O error).
    case writeFailed(path: String, reason: String)
    /// The export was cancelled (Ctrl-C); nothing was left at `path`.
    case cancelled(path: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read the package: \(reason)"
        case let .notAPackage(path, reason):
            return "\(path): not a .luapkg package: \(reason)"
        case let .tooManyEntries(path, count, limit):
            return "\(path): the archive holds \(count) entries; a package holds at most \(limit)"
        case let .manifestNotFirst(path, first):
            if let first {
                return
                    "\(path): \(first): the first entry must be \(Manifest.entryName); this is not a package flowpkg wrote"
            }
            return "\(path): the archive is empty; a package starts with \(Manifest.entryName)"
        case let .manifestTooLarge(path, size, limit):
            return "\(path): \(Manifest.entryName): \(size) bytes is over the limit of \(limit) bytes"
        case let .invalidManifest(path, problems), let .invalidPackage(path, problems):
            return problems.map { "\(path): \($0)" }.joined(separator: "\n")
        case let .corruptEntry(path, entry, reason):
            return "\(path): \(entry): \(reason)"
        case let .noSuchModule(path, name):
            return "\(path): the package has no module \(name)"
        case let .noSuchResource(path, key):
            return "\(path): the package has no resource \(key)"
        case let .identifierMismatch(path, expected, found):
            return "\(path): \(Manifest.entryName): the package is \(found), not \(expected)"
        case let .invalidInput(path, entry, reason):
            return "\(path): \(entry.map { "\($0): " } ?? "")\(reason)"
        case let .inputUnreadable(file, entry, reason):
            return "\(file): cannot read it for \(entry): \(reason)"
        case let .inputChanged(file, entry):
            return "\(file): the file changed while it was being exported as \(entry); export again"
        case let .outputUnwritable(path, reason):
            return "\(path): cannot write the package: \(reason)"
        case let .writeFailed(path, reason):
            return "\(path): writing the package failed: \(reason)"
        case let .cancelled(path):
            return "\(path): export cancelled; nothing was written"
        }
    }

    /// The problems this error stands for, each tied to its entry: what `verify` reports when
    /// a package cannot even be opened.
    public var problems: [PackageProblem] {
        switch self {
        case let .invalidManifest(_, problems), let .invalidPackage(_, problems):
            return problems
        case let .corruptEntry(_, entry, reason):
            return [PackageProblem(.corruptEntry, entry: entry, message: reason)]
        case let .manifestTooLarge(_, size, limit):
            return [
                PackageProblem(
                    .manifestNotFirst, entry: Manifest.entryName,
                    message: "\(size) bytes is over the limit of \(limit) bytes")
            ]
        case let .manifestNotFirst(_, first?):
            return [
                PackageProblem(
                    .manifestNotFirst, entry: first, message: "the first entry must be \(Manifest.entryName)")
            ]
        case let .identifierMismatch(_, expected, found):
            return [
                PackageProblem(
                    .identifierMismatch, entry: Manifest.entryName, message: "the package is \(found), not \(expected)")
            ]
        default:
            let text = description
            let prefix = pathPrefix
            let code: DiagnosticCode =
                switch self {
                case .tooManyEntries: .packageLimitExceeded
                case .manifestNotFirst: .manifestNotFirst
                case .noSuchModule, .noSuchResource: .entryNotListed
                case .invalidInput: .packageLimit
                case .inputUnreadable, .inputChanged: .inputUnreadable
                case .outputUnwritable, .writeFailed: .outputUnwritable
                case .cancelled: .exportCancelled
                default: .packageUnreadable
                }
            return [
                PackageProblem(
                    code, entry: nil, message: text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text)
            ]
        }
    }

    private var pathPrefix: String {
        switch self {
        case let .unreadable(path, _), let .notAPackage(path, _), let .tooManyEntries(path, _, _),
            let .manifestNotFirst(path, _), let .noSuchModule(path, _), let .noSuchResource(path, _):
            return "\(path): "
        default: return ""
        }
    }
}
