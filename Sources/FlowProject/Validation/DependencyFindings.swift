import FlowDiagnostics

/// A dependency's own style is not the project's to fix: static analysis (FP4xx and lint) reads its
/// modules, so requires into it resolve and it is checked for what breaks a run, but its own
/// findings are not reported. Syntax and content problems (FP3xx) still are.
enum DependencyFindings {
    static func withoutLint(_ diagnostics: [Diagnostic], of modules: [ProjectModule]) -> [Diagnostic] {
        let files = Set(modules.filter { $0.dependency != nil }.map(\.file.path))
        guard !files.isEmpty else { return diagnostics }
        return diagnostics.filter { diagnostic in
            !(diagnostic.code.area == .analysis && diagnostic.file.map(files.contains) == true)
        }
    }
}
