import FlowDiagnostics
import FlowPackage

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The small constraint arithmetic and failures the dependency commands share.
extension DependencyLocking {
    /// `>= 1.2, < 2` for 1.2.3-1 (`>= 0.3, < 0.4` for 0.3.1-1): what `add NAME` records, so
    /// `update` moves within the release line, as cargo's `^1.2` does.
    static func compatibleConstraint(_ version: String) -> String {
        let parts = version.split(separator: "-")[0].split(separator: ".").map(String.init)
        let major = Int(parts.first ?? "") ?? 0
        let minor = parts.count > 1 ? parts[1] : "0"
        let lower = ">= \(major).\(minor)"
        if major == 0, let minorNumber = Int(minor) { return lower + ", < 0.\(minorNumber + 1)" }
        return lower + ", < \(major + 1)"
    }

    static func failure(_ code: DiagnosticCode, _ message: String, file: String, hint: String? = nil) -> Outcome {
        Outcome(
            lock: nil, diagnostics: [Diagnostic(severity: .error, code: code, message: message, file: file, hint: hint)]
        )
    }
}

extension DependencyLocking {
    /// `dependencies` with `development` set on each that only `devDependencies` reach: what
    /// `dependencies` reach, following each one's own (`say >= 1.4` names `say`), is not.
    static func markDevelopment(_ dependencies: [LockedDependency], declarations: [DependencyDeclaration])
        -> [LockedDependency]
    {
        let byName = Dictionary(dependencies.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var reached = Set<String>()
        var queue = declarations.filter { !$0.isDevelopment }.map(\.name)
        while let name = queue.popLast() {
            guard reached.insert(name).inserted, let dependency = byName[name] else { continue }
            queue += dependency.dependencies.compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        return dependencies.map { dependency in
            var marked = dependency
            marked.development = reached.contains(dependency.name) ? nil : true
            return marked
        }
    }
}

extension DependencyLocking {
    /// The diagnostic, filed under `file` when it names none.
    public static func located(_ diagnostic: Diagnostic, file: String) -> Diagnostic {
        var diagnostic = diagnostic
        if diagnostic.file == nil { diagnostic.file = file }
        return diagnostic
    }
}

extension LockedModule {
    /// A lock is read from disk: its names and paths must stay below vendor/NAME/.
    public func checkPlace(in dependency: LockedDependency) throws(DependencyError) {
        if let problem = DependencyDeclaration.nameProblem(dependency.name) ?? LockedModule.pathProblem(path) {
            throw .lockOutOfDate(
                reason:
                    "flowpkg.lock names the file '\(path)' of '\(dependency.name)', which cannot be used: \(problem)"
            )
        }
    }
}
