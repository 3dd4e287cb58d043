import FlowPackage

/// Why the loader could not find or serve a package, a module or a resource.
public enum LoaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No `.luapkg` with this identifier in the directories searched; `found` lists what was there.
    case packageNotFound(identifier: PackageIdentifier, searched: [String], found: [PackageCandidate])
    /// More than one `.luapkg` in the directories searched has this identifier.
    case ambiguousPackage(identifier: PackageIdentifier, matches: [String], found: [PackageCandidate])
    /// The package or folder serves another identifier than the host asked for.
    case identifierMismatch(location: String, expected: PackageIdentifier, found: PackageIdentifier)
    /// The package cannot be used at all: missing, unreadable, or refused by its integrity rules.
    case packageRefused(location: String, reasons: [String])
    /// `require` of a module no source has; `searched` says where it looked.
    case moduleNotFound(ModuleName, searched: [String])
    /// `getResource` of a resource no source has.
    case resourceNotFound(ResourceKey, searched: [String])
    /// A source has the item but cannot serve it intact (a digest mismatch, an unreadable file).
    case itemRefused(item: String, location: String, reason: String)
    /// The source policy found nothing to load code from.
    case noUsableSource(reason: String)

    public var description: String {
        switch self {
        case .packageNotFound(let identifier, let searched, let found):
            var text = "no package with identifier '\(identifier)' in \(Self.list(searched))"
            text += found.isEmpty ? " (no .luapkg files there)" : "; found:\n" + Self.describe(found)
            return text
        case .ambiguousPackage(let identifier, let matches, let found):
            return "\(matches.count) packages have identifier '\(identifier)': \(matches.joined(separator: ", "))"
                + "; keep one, or search fewer directories. Found:\n" + Self.describe(found)
        case .identifierMismatch(let location, let expected, let found):
            return "\(location) has identifier '\(found)', not '\(expected)'"
        case .packageRefused(let location, let reasons):
            if reasons.count == 1 { return "\(location): \(reasons[0])" }
            return "\(location) is refused:\n" + reasons.map { "  - \($0)" }.joined(separator: "\n")
        case .moduleNotFound(let name, let searched):
            return "module '\(name)' not found:" + searched.map { "\n\tno module '\(name)' in \($0)" }.joined()
        case .resourceNotFound(let key, let searched):
            return "resource '\(key)' not found:" + searched.map { "\n\tno resource '\(key)' in \($0)" }.joined()
        case .itemRefused(let item, let location, let reason):
            return "\(item) in \(location) is refused: \(reason)"
        case .noUsableSource(let reason):
            return reason
        }
    }

    private static func list(_ places: [String]) -> String {
        places.isEmpty ? "(no directories)" : places.joined(separator: ", ")
    }

    private static func describe(_ found: [PackageCandidate]) -> String {
        found.map { "  \($0.path) → \($0.identifier ?? "unreadable: \($0.problem ?? "?")")" }.joined(separator: "\n")
    }
}

/// A `.luapkg` file the locator looked at, and what its manifest says it is.
public struct PackageCandidate: Equatable, Sendable {
    public var path: String
    /// The manifest's identifier; nil when the manifest could not be read.
    public var identifier: String?
    /// Why the manifest could not be read.
    public var problem: String?

    public init(path: String, identifier: String?, problem: String? = nil) {
        self.path = path
        self.identifier = identifier
        self.problem = problem
    }
}
