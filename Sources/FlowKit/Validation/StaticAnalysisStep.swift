import FlowPackage

/// The static-analysis step of validation (FP4xx), kept apart so the analysis engineer's
/// parser and project rules plug in here and nowhere else.
///
/// Until `ModuleAnalyzer` and `ProjectRules` land on main this step learns nothing: it returns
/// no facts and no diagnostics, and validation reports syntax and content only.
enum StaticAnalysisStep {
    /// Facts about one module that compiled, read from the same bytes the compiler saw.
    static func facts(of source: UnsafeRawBufferPointer) -> ModuleFacts? {
        nil
    }

    /// Project-wide rules (requires, resources, globals) over every module's facts.
    static func check(project: Project, facts: [ModuleName: ModuleFacts]) -> [Diagnostic] {
        []
    }
}
