import FlowAnalysis
import FlowDiagnostics
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The types step of validation (FP9xx): every module's types, with the environment's
/// definitions, the project's own definition files (flowpkg.json's `types` folders and
/// `.luarc.json`'s `workspace.library` inside the project) and `.luarc.json`'s settings,
/// checked by `TypeRules`.
public enum TypeCheckStep {
    /// The codes of the types' findings: suppressible, and left warnings by `--strict`.
    static let codes: [DiagnosticCode] = [
        .malformedAnnotation, .argumentTypeMismatch, .tooManyReturns, .tooFewReturns, .unknownClassField,
        .callOfNonFunction, .assignmentTypeMismatch, .deprecatedUse, .missingClassField,
    ]

    /// At most this many definition files are read, each no larger than a module may be.
    static let maximumDefinitionFiles = 5_000

    /// The findings of `modules` and the project's `definitions` files, but those whose LuaLS name is `disabled`.
    static func check(
        project: Project, modules: [ProjectRules.Module], definitions: [(path: String, types: ModuleTypes)],
        disabled: Set<String>
    ) -> [Diagnostic] {
        let typed = typedModules(modules)
        guard !typed.isEmpty else { return [] }
        let definitions = definitionModules(definitions)
        let catalog = catalog(project: project, definitions: definitions, typed: typed)
        return findings(of: typed + definitions, catalog: catalog, disabled: disabled)
    }

    /// The modules that have types, as the type rules take them.
    static func typedModules(_ modules: [ProjectRules.Module]) -> [TypeRules.Module] {
        modules.compactMap { module in
            module.facts.types.map { TypeRules.Module(name: module.name.rawValue, file: module.file, types: $0) }
        }
    }

    /// The project's definition files, as the type rules take them.
    static func definitionModules(_ definitions: [(path: String, types: ModuleTypes)]) -> [TypeRules.Module] {
        definitions.map { TypeRules.Module(name: nil, file: $0.path, types: $0.types) }
    }

    /// What the modules are checked against: the environment's definitions, the definition
    /// files, then each typed module in order.
    static func catalog(project: Project, definitions: [TypeRules.Module], typed: [TypeRules.Module]) -> TypeCatalog {
        var catalog = TypeDefinitions.catalog(forEnvironment: project.projectFile.environment)
        for module in definitions + typed { catalog.add(module.types, module: module.name, file: module.file) }
        return catalog
    }

    /// The findings of `modules` against `catalog`, less those `.luarc.json` disables.
    static func findings(of modules: [TypeRules.Module], catalog: TypeCatalog, disabled: Set<String>) -> [Diagnostic] {
        TypeRules.check(modules: modules, catalog: catalog).filter { diagnostic in
            !TypeRules.luaLSNames(of: diagnostic.code).contains { disabled.contains($0) }
        }
    }

    /// The types a project knows before its modules': the environment's definitions and the
    /// project's definition files (`SessionTypeCatalog` adds every analysed module's).
    static func definitionsCatalog(of session: ValidationSession) -> TypeCatalog {
        let environment = session.project?.projectFile.environment ?? "lua"
        var catalog = TypeDefinitions.catalog(forEnvironment: environment)
        if let project = session.project {
            for file in definitionFiles(of: project, luarc: LuaLSConfiguration.load(inProject: project.root)) {
                catalog.add(file.types, module: nil, file: file.path)
            }
        }
        return catalog
    }

    /// The `.lua` files of the definition folders, read for their types.
    static func definitionFiles(of project: Project, luarc: LuaLSConfiguration) -> [(path: String, types: ModuleTypes)]
    {
        let folders = project.projectFile.types + luarc.libraries.filter { !$0.contains("$") }
        guard !folders.isEmpty, let root = FileTree.realPath(project.root.path) else { return [] }
        let links = LinkRule(projectRoot: root, allowsOutside: project.allowsOutsideLinks)
        var found: [(String, ModuleTypes)] = []
        for folder in folders {
            let path = folder.hasPrefix("/") ? folder : project.root.appendingPathComponent(folder).path
            guard let real = FileTree.realPath(path), links.refusal(of: real) == nil else { continue }
            for relative in FileManager.default.walk(real, skippingHidden: true) where relative.hasSuffix(".lua") {
                guard found.count < maximumDefinitionFiles else { return found }
                let file = real + "/" + relative
                var info = stat()
                guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= 8 << 20,
                    let data = FileManager.default.contents(atPath: file),
                    let types = ModuleTypes.of(source: [UInt8](data))
                else { continue }
                found.append((file, types))
            }
        }
        return found
    }
}
