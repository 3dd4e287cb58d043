import FlowSupport

extension DependencyGraph {
    /// Where the locked path dependency `dependency` is declared: its entry in the project's
    /// flowpkg.json, or in the flowpkg.json of the path dependency that lists it; nil when
    /// neither lists its folder any more.
    public static func declaration(
        ofPath dependency: LockedDependency, in lock: Lockfile, root: String, file: DependentProject,
        projects: any ProjectFolderReading
    ) -> DeclarationPlace? {
        let target = PathText.resolve(dependency.origin, against: root)
        if let own = pathDeclaration(of: target, in: file.dependencies, folder: root) {
            return own.place(in: root + "/" + DependentProject.fileName)
        }
        for other in lock.dependencies where other.kind == "path" && other.name != dependency.name {
            let folder = PathText.resolve(other.origin, against: root)
            guard let declarations = projects.read(folder: folder).file?.dependencies,
                let entry = pathDeclaration(of: target, in: declarations, folder: folder)
            else { continue }
            return entry.place(in: folder + "/" + DependentProject.fileName)
        }
        return nil
    }

    /// The entry of `declarations` (read from `folder`'s flowpkg.json) whose path is `target`.
    private static func pathDeclaration(of target: String, in declarations: [DependencyDeclaration], folder: String)
        -> DependencyDeclaration?
    {
        declarations.first { declaration in
            guard case .path(let path) = declaration.source else { return false }
            return PathText.resolve(path, against: folder) == target
        }
    }
}
