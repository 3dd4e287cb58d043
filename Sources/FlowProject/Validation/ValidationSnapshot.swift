import FlowAnalysis
import FlowDiagnostics
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `ValidationSession` as it is at one moment: every module's outcome and buffer, copied
/// (the arrays share storage until the session changes), so its report is computed on another
/// thread while the session takes more edits: `flowpkg lsp` answers completion without waiting
/// for the project-wide rules (issue 47).
///
/// Unchecked: it holds values only, and nothing reads or writes them but the thread computing
/// the report.
public struct ValidationSnapshot: @unchecked Sendable {
    let root: URL
    let project: Project?
    let discoveryDiagnostics: [Diagnostic]
    let modules: [ProjectModule]
    let units: [ValidationSession.Unit]
    let outcomes: [ModuleContentChecker.Outcome?]
    /// Each unit's facts as the project-wide step reads them (nil: not analysed).
    let analysedModules: [ProjectRules.Module?]
    let buffers: [String: [UInt8]]
    let comments: [String: Suppressions.Comments]
    /// When each unit was last analysed, and how many times the session was reloaded: what the
    /// project-wide step's cache tells changed modules by.
    let stamps: [Int]
    let reloads: Int
    let projectCheck: ProjectCheckCache?

    /// Everything validate would report for the project as it was, by file; a finding about
    /// no file in particular is filed under flowpkg.json.
    public func diagnosticsByFile() -> [String: [Diagnostic]] {
        let projectFile = root.path + "/" + ProjectFile.fileName
        var byFile: [String: [Diagnostic]] = [:]
        for diagnostic in sortedDiagnostics() {
            byFile[diagnostic.file ?? projectFile, default: []].append(diagnostic)
        }
        return byFile
    }

    /// Everything validate would report for the project as it was, in report order.
    func sortedDiagnostics() -> [Diagnostic] {
        var all = discoveryDiagnostics
        var analysed: [ProjectRules.Module] = []
        analysed.reserveCapacity(units.count)
        var unanalysed: [[UInt8]] = []
        // Syntax errors wait for the project-wide step when there is a project to grade them by.
        var uncompiled: [ProjectRules.UncompiledModule] = []
        for index in units.indices where outcomes[index] != nil {
            all += StaticAnalysisStep.separateSyntaxError(
                outcomes[index]?.diagnostics ?? [], of: project != nil ? units[index].name : nil, into: &uncompiled)
            if let module = analysedModules[index] { analysed.append(module) }
            if let source = outcomes[index]?.unanalysedSource { unanalysed.append(source) }
        }
        if let project, let projectCheck {
            let analysisStamps = ProjectCheckCache.AnalysisStamps(
                files: units.map(\.path), stamps: stamps, modules: analysedModules)
            all += projectCheck.check(
                project: project, reloads: reloads, modules: analysed, stamps: analysisStamps,
                unanalysedSources: unanalysed, uncompiled: uncompiled)
        } else if let project {
            all += StaticAnalysisStep.check(
                project: project, modules: analysed, unanalysedSources: unanalysed, uncompiled: uncompiled)
        }
        // Sorted once: what follows only filters, keeping the order.
        all = ReportOrder.sorted(all)
        if let project {
            let buffers = self.buffers
            let comments = self.comments
            all = Suppressions.apply(
                all, root: project.root.path, ignore: project.projectFile.ignore, contents: { buffers[$0] },
                known: { comments[$0] })
            all = DependencyFindings.withoutLint(all, of: modules)
        }
        return all
    }
}
