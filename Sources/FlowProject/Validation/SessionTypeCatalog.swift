import FlowAnalysis

/// The project's types as an editor uses them, kept between edits: each module's declarations
/// are cached, and only the modules the session analysed since the last request are read
/// again (issue 47: rebuilding the catalogue from every module after each edit was most of
/// completion's time).
///
/// The modules edited in the session are "hot": the catalogue of every other module (the
/// environment's and the project's definition files first) is built once per set of hot
/// modules, and the hot modules' declarations are added to a copy of it when one of them
/// changes, so an edit costs one module's merge, not the project's. The files an editor has
/// open are hot from the start: the first edit of one costs no rebuild of the base (on the
/// 7,413-module benchmark tree, the second completion took 19 ms for it). A module whose text
/// does not parse keeps the declarations of its last text that did. Not thread-safe, as the
/// session is not.
public final class SessionTypeCatalog {
    private var reloads = -1
    private var stamp = -1
    /// Each module's name and file, in the project's order, as the last reload found them.
    private var modules: [(name: String, path: String)] = []
    private var positionByPath: [String: Int] = [:]
    private var declarations: [String: ModuleTypes] = [:]
    /// The positions in `modules` of the hot modules, in order.
    private var hot: [Int] = []
    private var base: TypeCatalog?
    private var catalog = TypeCatalog()
    /// How many times the base was built: once per reload and per set of hot modules.
    private(set) var baseBuilds = 0

    public init() {}

    /// The catalogue of `session` as it is now; `editing` are the files an editor has open.
    public func catalog(of session: ValidationSession, editing: some Sequence<String> = [String]()) -> TypeCatalog {
        if session.reloads != reloads {
            reloads = session.reloads
            stamp = -1
            modules = session.moduleFiles.map { ($0.module.name.rawValue, $0.path) }
            positionByPath = [:]
            for (position, module) in modules.enumerated() { positionByPath[module.path] = position }
            declarations = [:]
            hot = []
            base = nil
        }
        if !makeHot(editing), session.modulesAnalysed == stamp { return catalog }
        let changed = readDeclarations(of: session)
        stamp = session.modulesAnalysed
        var rebuilt = false
        if base == nil {
            var built = TypeCheckStep.definitionsCatalog(of: session)
            let hotPaths = Set(hot.map { modules[$0].path })
            for (name, path) in modules where !hotPaths.contains(path) {
                if let types = declarations[path] { built.add(types, module: name, file: path) }
            }
            base = built
            baseBuilds += 1
            rebuilt = true
        }
        if changed || rebuilt {
            catalog = base ?? TypeCatalog()
            for position in hot {
                let (name, path) = modules[position]
                if let types = declarations[path] { catalog.add(types, module: name, file: path) }
            }
        }
        return catalog
    }

    /// Makes the modules among `paths` hot; true when one was not (the base is then built again).
    private func makeHot(_ paths: some Sequence<String>) -> Bool {
        var added = false
        for path in paths {
            guard let position = positionByPath[path], !hot.contains(position) else { continue }
            hot.append(position)
            added = true
        }
        guard added else { return false }
        hot.sort()
        base = nil
        return true
    }

    /// Reads the declarations of the modules analysed since the last request; true when one
    /// changed after the first read (a module that changes becomes hot, and the base is then
    /// built again without it).
    private func readDeclarations(of session: ValidationSession) -> Bool {
        let firstRead = stamp < 0
        var changed = false
        for path in session.filesAnalysed(since: stamp) {
            guard let position = positionByPath[path] else { continue }  // a script
            let module = modules[position]
            let old = declarations[module.path]
            // A text that does not parse (the line being typed) keeps the last declarations.
            let types =
                session.facts(ofModuleAt: module.path)?.types?.declarations ?? old ?? ModuleTypes()
            declarations[module.path] = types
            guard !firstRead, old != types else { continue }
            changed = true
            if !hot.contains(position) {
                hot.append(position)
                hot.sort()
                base = nil
            }
        }
        return changed
    }
}
