import FlowDependencies
import FlowDiagnostics
import FlowLoader
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `flowpkg test` runs specs against: the project folder, opened as `flowpkg run` opens
/// it, with the dev dependencies' modules (luassert, say) among the locked ones.
public struct TestTarget {
    public var project: Project
    /// The project's modules and resources, dev dependencies included; chunk names are
    /// relative to the project folder, as busted run there names them.
    public var source: ProjectFolderSource
    /// Warnings from reading the project (a project with errors is refused).
    public var warnings: [Diagnostic]

    /// Opens the project in `folder`; refused with its errors when it has any.
    public static func open(_ folder: URL, options: DependencyOptions = DependencyOptions()) throws(RunTargetError)
        -> TestTarget
    {
        var options = options
        options.includesDevelopment = true
        let discovery = ProjectLoader.discover(in: folder, dependencyOptions: options)
        guard let project = discovery.project, !discovery.diagnostics.contains(where: { $0.severity == .error })
        else { throw .projectHasErrors(discovery.diagnostics) }
        return TestTarget(
            project: project, source: ProjectFolderSource(project: project, workingDirectory: project.root.path),
            warnings: discovery.diagnostics)
    }

    /// The modules of the dev dependencies (luassert, say, and what they depend on), which a
    /// program's package and `flowpkg serve` never hold: what `flowpkg test --live` sends along.
    public var developmentModules: [ProjectModule] {
        let lock = try? Lockfile.read(at: project.root.path + "/" + Lockfile.fileName)
        let development = Set((lock?.dependencies ?? []).filter { $0.development == true }.map(\.name))
        return project.modules.filter { $0.dependency.map(development.contains) == true }
    }
}
