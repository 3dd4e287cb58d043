import FlowAnalysis

/// The project's types as an editor uses them, kept between edits: each module's declarations
/// are cached by its analysis, and only the modules analysed since the last request are read
/// again (issue 47: rebuilding the catalogue from every module after each edit was most of
/// completion's time).
///
/// The modules edited in the session are "hot": the catalogue of every other module (the
/// environment's and the project's definition files first) is built once per set of hot
/// modules, and the hot modules' declarations are added to a copy of it when one of them
/// changes, so an edit costs one module's merge, not the project's. A module whose text does
/// not parse keeps the declarations of its last text that did. Not thread-safe, as the
/// session is not.
public final class SessionTypeCatalog {
    private var reloads = -1
    private var stamp = -1
    private var declarations: [String: (stamp: Int, types: ModuleTypes)] = [:]
    private var hot: Set<String> = []
    private var base: TypeCatalog?
    private var catalog = TypeCatalog()

    public init() {}

    /// The catalogue of `session` as it is now.
    public func catalog(of session: ValidationSession) -> TypeCatalog {
        if session.reloads != reloads {
            reloads = session.reloads
            declarations = [:]
            hot = []
            base = nil
        } else if session.modulesAnalysed == stamp, base != nil {
            return catalog
        }
        stamp = session.modulesAnalysed
        var changed = false
        let firstRead = declarations.isEmpty
        for (_, path) in session.moduleFiles {
            guard let analysed = session.analysisStamp(ofFileAt: path), declarations[path]?.stamp != analysed else {
                continue
            }
            let old = declarations[path]
            // A text that does not parse (the line being typed) keeps the last declarations.
            let types = session.facts(ofModuleAt: path)?.types?.declarations ?? old?.types ?? ModuleTypes()
            declarations[path] = (analysed, types)
            guard !firstRead, old?.types != types else { continue }
            changed = true
            if hot.insert(path).inserted { base = nil }
        }
        var rebuilt = false
        if base == nil {
            base = Self.base(of: session, without: hot, declarations: declarations)
            rebuilt = true
        }
        if changed || rebuilt {
            catalog = base ?? TypeCatalog()
            for (module, path) in session.moduleFiles where hot.contains(path) {
                if let types = declarations[path]?.types {
                    catalog.add(types, module: module.name.rawValue, file: path)
                }
            }
        }
        return catalog
    }

    /// The environment's definitions, the project's definition files and the declarations of
    /// every module not in `hot`, in the project's module order.
    private static func base(
        of session: ValidationSession, without hot: Set<String>,
        declarations: [String: (stamp: Int, types: ModuleTypes)]
    ) -> TypeCatalog {
        var catalog = TypeCheckStep.definitionsCatalog(of: session)
        for (module, path) in session.moduleFiles where !hot.contains(path) {
            if let types = declarations[path]?.types { catalog.add(types, module: module.name.rawValue, file: path) }
        }
        return catalog
    }
}
