import FlowDiagnostics
import FlowPackage

// FP301: a module that does not compile.
extension ProjectRules {
    /// A module's syntax error: always an error (FP301), since issue 34. Export packages every
    /// module, and one that does not compile fails whenever it is first required, so where a
    /// run reaches it only changes when it fails; a module that does not load at start says so.
    static func syntaxError(_ module: UncompiledModule, loadedAtStart: Set<String>?) -> Diagnostic {
        guard let loadedAtStart, !loadedAtStart.contains(module.name.rawValue) else { return module.diagnostic }
        var diagnostic = module.diagnostic
        diagnostic.hint =
            (diagnostic.hint.map { $0 + "; " } ?? "")
            + "'\(module.name)' does not load at start, but export packages it and the require that first loads it fails"
        return diagnostic
    }
}
