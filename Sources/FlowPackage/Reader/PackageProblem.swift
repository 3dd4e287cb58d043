import FlowDiagnostics

/// One thing wrong with a package, tied to the entry it concerns when there is one.
///
/// `verify` collects these; its text form is what `flowpkg verify` prints after the
/// package's path: `modules/main.lua: sha256 mismatch …`, followed there by its code.
public struct PackageProblem: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// What kind of problem this is: an FP7xx code of the catalogue, as a validate
    /// diagnostic has its FP1xx–FP6xx code.
    public var code: DiagnosticCode
    /// The entry's path inside the package (`modules/main.lua`, `manifest.json`), or nil for a
    /// problem of the whole archive.
    public var entry: String?
    public var message: String

    public init(_ code: DiagnosticCode, entry: String?, message: String) {
        self.code = code
        self.entry = entry
        self.message = message
    }

    public var description: String { entry.map { "\($0): \(message)" } ?? message }
}
