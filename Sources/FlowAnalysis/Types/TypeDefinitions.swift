import EmbeddedDefinitions
import LuaSyntax

/// The definitions each environment ships of its globals (`Sources/EmbeddedDefinitions/Embedded/ENV/*.lua`, compiled
/// in): Lua's standard library and flowpkg's runtime API for every environment, and the
/// host's own API after them. Read once per process.
public enum TypeDefinitions {
    private static let byFolder: [String: [ModuleTypes]] = {
        var types: [String: [ModuleTypes]] = [:]
        for file in EmbeddedDefinitions.files {
            guard let folder = file.path.split(separator: "/").first, let parsed = ModuleTypes.of(source: file.bytes)
            else { continue }
            types[String(folder), default: []].append(parsed)
        }
        return types
    }()

    /// The definition files of the environment `name` (plain Lua's for an unknown one).
    public static func definitions(forEnvironment name: String) -> [ModuleTypes] {
        let base = byFolder["lua"] ?? []
        return name == "lua" ? base : base + (byFolder[name] ?? [])
    }

    /// A catalogue holding the environment's definitions.
    public static func catalog(forEnvironment name: String) -> TypeCatalog {
        var catalog = TypeCatalog()
        for definitions in definitions(forEnvironment: name) { catalog.add(definitions, module: nil) }
        return catalog
    }
}
